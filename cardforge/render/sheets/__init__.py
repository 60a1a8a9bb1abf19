"""Printed sheets other than cards: boards, score pads, player aids, setup sheets, the calibration
sheet, and their placement on paper."""
