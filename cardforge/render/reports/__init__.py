"""The playtest lab as a document: its report (PDF and the web page's parts) and charts."""
