"""Geometry: a page's glyphs become words and lines (`words`), its running
headers and footers are found by repetition across pages (`furniture`), and its
body is segmented into bands and columns: the occupancy grid and the rules of a
gutter (`grid`), the gutters of a page and of the document (`gutters`),
and the reading-order tree cut from them (`segment`)."""
