"""Exports made from the card faces: PNG files, Tabletop Simulator sheets, print-on-demand files,
the preview contact sheet."""
