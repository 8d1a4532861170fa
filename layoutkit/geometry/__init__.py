"""Geometry: a page's glyphs become words and lines (:mod:`.words`), its running
headers and footers are found by repetition across pages (:mod:`.furniture`), and its
body is segmented into bands and columns: the occupancy grid and the rules of a
gutter (:mod:`.grid`), the gutters of a page and of the document (:mod:`.gutters`),
and the reading-order tree cut from them (:mod:`.segment`)."""
