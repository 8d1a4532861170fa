"""Geometry: a page's glyphs made into words and lines, and its body cut into columns.

- `words`: glyphs become words and lines; `links`: the words a link covers take its address.
- `turn`: a page whose text runs turned, read in the frame where it reads upright.
- `furniture`: running headers and footers, found by repetition across pages.
- `grid`: the occupancy grid and the rules of a gutter.
- `gutters`: the gutters of a page and of the document.
- `segment`: the reading-order tree of bands and columns cut from them.
"""
