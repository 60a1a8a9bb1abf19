"""The play log and what is worked out from it, without a web framework: the store (plays,
players, backups: :mod:`.store`), plays read from a spreadsheet (:mod:`.importer`), the stats
pages' numbers (:mod:`.stats`) and the playtest lab's options and view (:mod:`.lab`).

Used alike by the CLI (``cardforge plays``, ``cardforge report``), the PDF report and the web
(``cardforge serve``); it imports neither ``cardforge.render`` nor ``cardforge.web``.
"""
