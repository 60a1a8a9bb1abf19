"""What is drawn on a card or a sheet: rich text, icons, images and SVG art, and a game's own fonts and icons."""
