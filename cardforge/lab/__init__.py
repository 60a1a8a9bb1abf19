"""The playtest lab: plays tied to the deck version they were played with, balance measured
per version (seats, declared choices, cards) and from the card data alone.

- :mod:`cardforge.lab.facts`: what was on the table — a deck's version and fingerprint (the
  working data's or a printed build record's), each player's declared choices and the cards
  their final state names.
- :mod:`cardforge.lab.versions`: version order and selections (``0.3``, ``0.2..0.3``, ``0.3..``).
- :mod:`cardforge.lab.stats`: the numbers of a set of plays (win rates with Wilson intervals,
  margins, category shares, lengths, per card) and the comparison of two versions.
- :mod:`cardforge.lab.balance`: value against cost of the cards, per group (least squares),
  with each card's leave-one-out residual.

No web framework, no ReportLab: the pages (``web/lab.py``) and the PDF report
(``render/reports/lab_report.py``) show what these compute. Definitions: docs/internals/lab.md.
"""
