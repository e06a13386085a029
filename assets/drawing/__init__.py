"""The pieces of assets/draw_art.py: the canvas, the tiles and the figures."""
