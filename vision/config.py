"""Every tuning number of the photo reader, in one place.

Each pipeline stage takes a :class:`ReaderConfig` as its first argument. Lengths are in
pixels of the *detection* image (the downscaled copy) unless the name says ``_frac`` (a
fraction of a tile side) or ``_full`` (pixels of the original image).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReaderConfig:
    """Tuning numbers of the photo reader (defaults are the shipped choice)."""

    # --- load ------------------------------------------------------------------------
    #: refuse images with more pixels than this (decompression bombs), checked on the header
    max_pixels: int = 120_000_000
    #: refuse images whose copy searched for tiles is under this many px on its shorter
    #: side (a 1 x 1 image, a 20000 x 50 strip: OpenCV's filters fail on them, and no
    #: tile of the smallest size looked for fits)
    min_detect_side: int = 32
    #: longest side of the copy used to find tiles (crops are cut from the full image)
    detect_max_side: int = 1400
    #: a JPEG so large that the copy searched for tiles is at most 1 / half_grey_from of
    #: it is decoded in grey at half size (the decoder's own reduction; the 12 MP sample
    #: in 21 ms against 28 ms in full, most of a decode being the same at any size), the
    #: copy searched made from that and from a quarter of the pixels (0 = never) ...
    half_grey_from: int = 3
    #: ... and its digit crops cut from that too for tiles at least this many px a side in
    #: the photo (60 at half size: a crop covers 0.3 of a side, sampled at 32 px); smaller
    #: tiles' crops from the full grey image, decoded then
    half_grey_min_side: float = 120.0
    #: a larger photo may first be searched on a copy this size; the answer stands when
    #: its tiles are at least coarse_min_side px a side there. 0 = never: the detector
    #: loses tiles under ~45 px a side, and at 1024 (a quarter of a 12 MP photo's side,
    #: 40 % less detection time) 20 synthetic 12 MP photos gave 468 of 583 tiles against
    #: 513 at 1400 (accepting >= 40 px); on the 12 MP sample a smaller copy found 23 of 30
    coarse_max_side: int = 0
    coarse_min_side: float = 30.0
    #: a photo not downscaled whose tiles are smaller than this (px a side) is searched
    #: again at double size (0 = never)
    upscale_below: float = 100.0
    #: ... as is one whose board has fewer than this many cells (a few big shapes of the
    #: table can hide a board of small tiles: their size is then taken for the tiles')
    upscale_few: int = 6

    # --- detect ----------------------------------------------------------------------
    #: tile side limits in detection pixels
    min_side: float = 12.0
    max_side_frac: float = 0.6  # of the shorter image side
    #: edge map: Gaussian blur sigma = edge_blur + edge_blur_per_noise * noise sigma
    edge_blur: float = 0.8
    edge_blur_per_noise: float = 0.15
    #: Canny high threshold = this x the median gradient (at least edge_hi_min)
    edge_hi_over_median: float = 4.0
    edge_hi_min: float = 12.0
    #: seam (thin dark line) detector: black-hat kernel size (0 = off) and threshold
    seam_kernel: int = 5
    seam_over_noise: float = 3.0
    seam_min: float = 6.0
    #: local-brightness masks (adaptive threshold block sizes, offset in grey levels)
    block_sizes: tuple[int, ...] = (15,)
    block_c: float = 3.0
    #: how far (px) a face found that way is grown back to its true outline
    block_grow: float = 1.5
    #: where the edges' faces give no board and it is read from its silhouette, faces
    #: inside dark rims are looked for (bevelled tiles whose face is the table's grey,
    #: outlined by their shaded bevels; 0 = off): pixels darker than the mean of a block
    #: this size (px) by rim_c grey levels are rim; the regions they enclose are faces,
    #: grown back by rim_grow_frac x their side; kept if they make a bigger board
    rim_block: int = 51
    rim_c: float = 8.0
    rim_grow_frac: float = 0.05
    #: ... kept where the mask, this many sides out from its sides' middles, is no rim
    rim_out_frac: float = 0.25
    #: where the edges' faces give no board (read from its silhouette, or fewer than
    #: dark_below faces), faces are also looked for on a copy brightened by this gamma
    #: (dark tiles: their seams are a few grey levels; 0 = off); kept if they make a
    #: bigger board; only faces whose grey level is at most dark_face_max are added
    dark_gamma: float = 0.5
    dark_below: int = 3
    #: ... and where faces in shaded rims made a board in place of the silhouette's (False:
    #: not then; onyx dev 73000031, a board of 4 rim faces where 12 dark ones made a bigger)
    dark_after_rims: bool = True
    #: ... a face found so is dropped where a face found by its edges lies, only if that
    #: one is of its size within this ratio: the holes of a dark tile's digits and pin,
    #: traced by the edges, lie at every dark face's centre (dev 71000963: black tiles on a
    #: dark wood, every face so dropped); 0 = any face found
    dark_found_alike: float = 1.6
    dark_face_max: float = 80.0
    #: ... and where those faces make no bigger board, they are sought again with the
    #: brightened copy's seams found by a black-hat this wide (px; 0 = not again): dark
    #: tiles' bevelled seams are grooves wider than seam_kernel, and on a textured table
    #: (granite) Canny's threshold, set from its median gradient, misses them (onyx dev
    #: 73000043: 13 of 40 black tiles read without)
    dark_seam_kernel: int = 9
    #: ... also on the copy doubled for small tiles (False: at the photo's scale or less
    #: only; there its grooves are twice as wide, and the search cost onyx dev 73000003
    #: 0.43 s against 0.07 s at full size)
    dark_seam_doubled: bool = False
    #: a board of 3 or more of those faces (dark ones, or faces in rims) that is smaller
    #: than the silhouette's lattice is read in its place if that lattice reads no tile
    #: (False: dropped)
    more_faces_fallback: bool = True
    #: ... and replaces that lattice where it is bigger only if it holds 3 or more of
    #: those faces (False: however few; a rack's tiles found before and the gaps between
    #: them fitted anew on the brightened copy, dev2 71000684, once a silhouette's
    #: outline off the photo's frame gave a lattice smaller than that)
    more_faces_own: bool = True
    #: a well-outlined face over 1.5 cells of a silhouette's lattice, whose cells inside
    #: show digits at least this often, is a board region outlined as one triangle, not
    #: a tile split into cells by its digits (those show in 21-50 % of the cells over it);
    #: 0.8 = only a face at least 3.5 cells a side so (the rule before onyx dev 73000041)
    split_board_shows: float = 0.6
    #: edge thickenings tried (radius in px): thicker closes gaps in a face's outline,
    #: thinner keeps a 1-px seam between joined tiles
    dilations: tuple[int, ...] = (1, 3)
    #: a contour is a tile face when its area fills this much of its enclosing triangle
    min_fill: float = 0.70
    #: largest ratio between the longest and shortest side of a candidate triangle
    #: (perspective up to ~50 degrees tilt stretches sides)
    max_side_ratio: float = 2.2
    #: two detections are the same tile when their centroids are this close (x side)
    dedupe_frac: float = 0.3
    #: sides of accepted tiles may differ from the median by this factor
    size_tolerance: float = 1.6
    #: faces outside ``size_tolerance`` of a board of joined faces are still offered to
    #: the board fitted to its silhouette, kept where their side is within this factor
    #: of the side of the lattice cell they lie on (a steep view's near tiles; 0: not)
    silhouette_local_size: float = 1.25
    #: ... and faces outside it still join the loose faces of a board fitted to its
    #: faces where their side is within this factor of the side of the lattice cell they
    #: lie in (a steep view's far loose tiles: dev 71000083, 0.52 of the board's; 0: not)
    loose_local_size: float = 1.25
    #: a face too skewed in the image for a tile lying flat is still a loose face where it
    #: is not on the table plane (the lattice's homography): a steep view squeezes a far
    #: tile (dev 71000083: sides 26, 39 and 46 px)
    loose_plane_skew: bool = True
    #: a board of joined faces of fewer cells than this (one at least) that a silhouette's
    #: board replaces told no tile size (one face the whole board's blob: dev 71000075):
    #: the faces of other sizes are offered to the silhouette's fit as loose faces only,
    #: kept where they show digits (blank shapes so found are mostly the table's print:
    #: dev 71000280's printed triangles) and not beside a board too blurred to read
    #: (1: never)
    silhouette_loose_below: int = 3
    #: ... except those of the size of the silhouette's lattice cells where they lie
    #: (within loose_local_size): loose faces like any, a blank one judged as a face-down
    #: tile (False: all offered as loose faces only)
    apart_board_size: bool = True

    # --- lattice ---------------------------------------------------------------------
    #: two tiles are joined when both ends of an edge lie this close (x side)
    join_frac: float = 0.15
    #: and the two edges lie at most this far apart across the seam (x side)
    join_gap_frac: float = 0.1
    #: ... but never less than this many pixels (small tiles: a pixel is a lot)
    join_min_px: float = 3.0
    #: a face lying on a free lattice cell next to the board (its corners within
    #: join_frac of the cell's vertices) may be this far from its neighbour's edge (x side):
    #: a hand-placed board drifts, and a loose tile never lies on a lattice cell by chance
    join_aligned_gap_frac: float = 0.3
    #: and the edge lengths agree within this fraction
    join_len_frac: float = 0.3
    #: where no two faces join, or few (thick rims, tiles set apart): faces of one size are
    #: grown outward by each of these fractions of their side, the one that joins most kept
    apart_grow: tuple[float, ...] = (0.03, 0.06, 0.09, 0.12)
    #: ... tried where the board of faces joined has fewer than this many (2 = only where
    #: no two join); where two or more join, kept only where the faces grown join at
    #: least apart_grow_least, and apart_grow_gain times as many as before: a few faces
    #: more are weaker evidence than the board's outline, sought where the faces make no
    #: board (dev 71000465: 2 faces joined, 3 grown; 52 tiles read from the outline, 41
    #: so), and faces that join but for one are no faces inset in rims, their growth
    #: only moving the lattice (dev2 71000519: 6 joined, 7 grown, a digit misread)
    apart_grow_below: int = 8
    apart_grow_least: int = 5
    apart_grow_gain: float = 1.5
    #: ... the faces of the size with most faces within this many sides of one another
    apart_reach: float = 2.5
    #: an empty cell next to the board is proposed as a missed tile when edges run along
    #: at least this fraction of each of its three sides
    fill_edge_support: float = 0.6
    #: the lattice's map to the photo is affine where the board's vertices are fewer than 8
    #: or lie in a band thinner than h_thin_spread (the smaller standard deviation of their
    #: lattice coordinates, in sides): perspective is not determined there, and a fitted
    #: one extrapolates along the board. A band at least h_thick_min thick (two rows of
    #: tiles) takes a homography that puts at least h_better more vertices than the affine
    #: map within h_fit_frac x side of where they are seen, and h_fit_share of them all: a
    #: steep view of a short board (dev A/B: 11 more photos read with no mistake, 2 fewer:
    #: a loose tile lying on the truer lattice then joins it; at 0.75, dev 71000918 lost 10 tiles)
    h_thin_spread: float = 0.8
    h_thick_min: float = 0.5
    h_better: int = 2
    h_fit_frac: float = 0.05
    h_fit_share: float = 0.8
    #: final vertices: the homography's prediction counts as this many corners when it lies
    #: within settle_frac x side of the corners' mean
    settle_weight: float = 1.5
    settle_frac: float = 0.08
    #: a face's corners off its cell's shape under the homography give no position to a
    #: vertex another face also sees (fit._off_corners): all three when the centred shapes
    #: differ by over settle_shape_max x side, else the corner furthest from where the other
    #: two put it when over settle_corner_max x side
    settle_shape_max: float = 0.5
    settle_corner_max: float = 0.3
    #: a vertex seen only by corners of faces whose whole shape is off (all three corners:
    #: a face cut short by a hand, or table outlined between tiles) is placed where the
    #: homography puts it, not at those corners
    settle_lopsided_predict: bool = True
    #: ... and with the worst corner, any other over settle_corner_max x side off the
    #: centred shape (a face flattened at two corners)
    settle_off_each: bool = True
    #: a cell whose sides have this mean edge support is worth snapping its unseen vertex
    fill_snap_min: float = 0.55
    #: a face whose sides' mean edge support is below this is re-posed (turned, grown,
    #: corners snapped to the edges); 0 = off
    repose_below: float = 0.0
    #: cells up to this many steps from the board are shown to the classifier even without
    #: an outline (0 = off); one is accepted when its corners show digits. An arm of
    #: tiles whose seams do not show is followed this far: dev 71000000-479 at 8 rather
    #: than 3, +25 tiles on 9 photos and 3 more read with no mistake (71000153, 199,
    #: 459), none lost (at 5, 4 tiles fewer on 71000424, and 3 wrong digits); at 11
    #: rather than 8, +5 tiles on 3 photos, 2 more with no mistake (71000225, 291),
    #: none lost (at 12, a tile cut by the photo's edge lost on 71000022); at 14 rather
    #: than 11 (stop 51, an Intel host): held out +11 tiles on 2 photos (70000112 read
    #: whole, 70000281 +5, 6 of whose 15 new digits, blurred, are wrong), recall 97.16 ->
    #: 97.30 %, no false tile; dev 71000022 the far end of its arm read (+3 tiles, read
    #: with no mistake; +7 with faults); nothing else changed on dev, dev2 or with faults
    ring_cells: int = 14
    #: ... of which only those within this many rings take a blank face lying squarely on
    #: them for the table between tiles (farther out it is a face-down tile, kept); the
    #: rings past them are made only next to cells the classifier saw to hold tiles (made
    #: for the whole table, 8 rings cost 17 ms on the 12 MP sample)
    ring_absorb: int = 3
    #: ... of which those cut by the photo's edge only within this many rings (0: next to
    #: the board); a candidate is read only next to a cell seen to hold a tile, so a row
    #: of tiles along the edge is followed ring by ring
    cut_ring_max: int = 2
    #: ... counted from the cells the classifier saw to hold tiles, not from the faces the
    #: fit began with: a ring made on demand lies next to tiles read, so a cell of it cut
    #: by the photo's edge is judged as the first ring (False: counted from the faces)
    cut_ring_from_read: bool = True
    #: a candidate cut by the photo's edge is also read where it meets a cell seen to hold
    #: a tile at a corner only, and joins the board when its digit there is the board's
    #: (the tiles between lie beyond the edge); False = off
    cut_corner_join: bool = True
    #: a candidate's shape is judged against the board's nearest tiles' size (False:
    #: against the mean tile size)
    candidate_local_size: bool = True
    #: ... and a candidate whose outline is no tile's shape is still read if the board's
    #: homography outlines a tile's shape there (False: never)
    candidate_h_shape: bool = True
    #: a loose face within this fraction of a side of such a cell's centre (and twice
    #: that of its corners) is taken for a board tile found poorly
    adopt_frac: float = 0.12
    #: ... and whose face's grey level is within this of the board tiles' (or 3 MADs);
    #: 255 = off (at 25 it cost 0.7 % recall on synthetic photos)
    tone_tol: float = 255.0
    #: ... with at most this mean "none" probability over its corners
    candidate_none_max: float = 0.2
    #: the rings of candidates read go on past a candidate with at most this mean "none"
    #: probability (one clear digit: a tile mostly under a hand), though it is no tile
    #: yet; candidate_none_max = off
    candidate_pass_none_max: float = 0.7
    #: ... and so do they past a cell outlined on the lattice (a face found, or a cell
    #: proposed) read with a mean "none" over none_threshold and at most
    #: candidate_pass_none_max: a face in view between fingers, its tile mostly under the
    #: hand; such a cell is read past as a candidate is (hidden_at_vertex, two_hidden_past,
    #: hidden_past_cell). False: only candidates are read past. Stop 107
    #: (ab_rows_stop107_past): dev2 71000640 +1 tile beyond a face in the shade, cut by the
    #: photo's edge; dev3 76000216 +1 (2 digits unknown, glare); fresh 75000002 +1 past a
    #: hand (1 unknown) and 75000191 +1, now with no mistake; dev2 71000560 2 false loose
    #: tiles more; no board read worse
    past_outlined: bool = True
    #: a candidate with a corner under a hand meeting the board at a vertex only (its digit
    #: there the board's), next to a candidate so read past, joins as partial
    hidden_at_vertex: bool = True
    #: ... and so does one a cell from the board, where the cell between is so read past
    #: and lies beside the board, no digit of it differing from the board's at a vertex
    #: (dev 71000403, dev2 71000828); False = off
    hidden_past_cell: bool = True
    #: ... and so does a cell with two corners hidden (cfg.two_hidden_min), its one digit
    #: in view the board's at the vertex it meets it at (dev 71000019); False = such a
    #: cell joins only beside a tile of the board in full
    two_hidden_past: bool = True
    #: ... and one read clearly at every corner joins in full
    full_at_vertex: bool = True
    #: ... its digit where it meets the board read at least this (dev 71000226: 0.63 in
    #: a box's shadow; dev A/B at 0.6 (0.5 the same): that photo read with no mistake, a
    #: mostly hidden tile found on 71000013, a false loose tile gone on 71000216, nothing
    #: lost; 0.7, adopt_loose_min, before)
    full_at_vertex_min: float = 0.6
    #: the cells meeting a tile seen at a vertex only are read too, in full view (kept
    #: where they show a tile: the rest is table), and one read clearly at every corner
    #: (mean "none" at most candidate_none_max) whose digit where it meets the board is
    #: the board's (at least full_at_vertex_min) joins it: a tile set down touching the
    #: board by a corner only, a fault the engine reports (False: such a tile, seen by no
    #: outline of its own, was reported nowhere, or off the board). Dev faults
    #: 71000000-399: 315 -> 323 photos with no mistake, +38 tiles, faults named 419 -> 426
    #: of 483, false violations as before, none lost
    corner_only_join: bool = True
    #: such a tile (corner_only_join; not one met past a hand, full_at_vertex) is not
    #: flagged as meeting the board past a hand or an object: only the judge of the
    #: board's pieces (vision.apart) says how it joins, and where nothing judges them the
    #: engine reports its fault (False: flagged so, a claim nothing in the photo made, dev
    #: faults 71000223 having no hand or object; that judge took it as joined out of sight
    #: either way, and no evaluation figure changed)
    corner_only_reported: bool = True
    #: ... and a tile so seen has the candidates around it read in turn, ring by ring, up
    #: to this many times (the board beyond a tile set down touching it by a corner, where
    #: the faces found by their edges were that tile alone; 0: never)
    corner_ring_rounds: int = 2
    #: a cell met at a corner only, in full view, showing a digit of at least
    #: corner_shift_seed at one corner and none at another is read again from its outline
    #: moved (shift_fracs; a tile set down by a corner lies off the lattice by hand;
    #: pipeline._corner_shift); above 1: never. Dev faults (400): 2 more photos with no
    #: mistake (71000186, 399), +4 tiles, corner-only tiles named 82.3 -> 83.5 %
    corner_shift_seed: float = 0.5
    #: ... kept where every corner then reads at least this (at 0.5, dev2 71000560 read
    #: a tile of a drifted arm 0.51-0.72 there and lost one)
    corner_shift_min: float = 0.7
    #: ... each of its digits read at least this (a tile set down in plain view reads
    #: clearly; a digit read under it may be a smudge, or a neighbour's digit where the
    #: lattice's outline lies off the cell)
    corner_only_min: float = 0.5
    #: ... or, touching the board, with one corner showing no digit (a hand or an object
    #: over it) and both others a digit of at least this probability, agreeing with the
    #: board's digits at their vertices (above 1: never). A finger over a digit's edge
    #: lowers its probability: dev 71000000-479 at 0.4 rather than 0.6, +3 tiles and +1
    #: photo with no mistake, none lost (at 0.3, one more tile, with a wrong digit)
    candidate_hidden_min: float = 0.4
    #: ... or one of the two at least hidden_weak_min and the other hidden_weak_clear,
    #: where a board tile shows the weak one's digit at that vertex, read at least
    #: hidden_veto_min (a finger over a digit's edge dims it; the board corroborates it);
    #: hidden_weak_min at candidate_hidden_min or above: off. Dev2: +1 photo with no
    #: mistake (71000849), +4 tiles, none lost; hidden_weak_clear at 0.4 read a false tile
    #: on dev faults 71000164 (the table between tiles reads neighbours' digits weakly)
    hidden_weak_min: float = 0.2
    hidden_weak_clear: float = 0.8
    #: ... and one the board cannot tell that corner of (no tile of it shows a digit
    #: there) is still reported, as partial with that digit unknown, when both shown
    #: digits are read at least this clearly (above 1: never). Dev seeds 71000000-239:
    #: +3 tiles, +2 photos with no mistake (71000071, 71000106: a corner under a finger);
    #: 71000240-479: no change; at 0.9 one tile fewer. At 0.4 rather than 0.7 (dev
    #: 71000000-479): +4 tiles, +2 photos, none lost
    hidden_partial_min: float = 0.4
    #: ... and one cut by the photo's edge (one corner beyond it, its digit's spot in view
    #: and read at least this) with a corner in view showing no digit is such a tile too,
    #: reported partial (above 1: never). A hand at the photo's edge: dev 71000862, 919
    #: (0.83, 0.91 beyond the edge); 71000848 (0.71) still joins nothing, the cells
    #: between it and the board lying under the hand too
    hidden_cut_min: float = 0.6
    #: ... and a board digit read less clearly than this at one of its vertices does not
    #: veto it (the hand over its corner often covers the board tile's corner beside it,
    #: whose crop reads a guess: dev 71000090 0.38, 71000216 0.49; 0 = every one does).
    #: Dev 71000000-999: +3 photos with no mistake, +7 tiles; at 0.7 one false tile more
    hidden_veto_min: float = 0.5
    #: ... and one with two corners showing no digit (two under a hand or an object) is
    #: reported where the third shows a digit read at least this clearly, agreeing with
    #: the board's there, and it touches the board: its hidden digits told by the board's
    #: tiles at their vertices, else unknown (above 1: never). Dev 71000000-479: +17
    #: tiles (71000265 now read with no mistake), 1 false (71000354: a digit printed on
    #: the cloth in the notch between two arms), digits +6 right, 1 wrong; joined only
    #: beside a tile of the board read in full (beside a partial one, or at a corner past
    #: a hidden one, it made 2 false violations: 71000216, 478); at 0.75 rather than
    #: 0.9: 8 tiles more, 4 of them false, 4 photos fewer with no mistake
    two_hidden_min: float = 0.9
    #: ... and so is a candidate cell cut by the photo's edge at one corner, showing that
    #: digit at one corner in view and none at the other (a hand or an object over it),
    #: reported with its corner in view hidden and its corner beyond the edge unknown
    #: (each told by the board where its tiles show that vertex's digit). Dev2 71000902:
    #: a 0-5-5 at the bottom edge, its left corner under a mug, its 5 read at 0.96, was a
    #: blank loose tile; dev, dev2, dev3, dev with faults (1,800 photos): +1 photo with
    #: no mistake, +2 tiles (one mostly hidden), nothing else changed; stop 113's nine
    #: sets: also a mostly hidden tile more on fresh 75000229 and onyx held out 74000059,
    #: nothing else changed (False: never)
    two_hidden_cut: bool = True
    #: ... and, on a candidate cell, a corner there reading a digit under this
    #: probability shows none: a finger's edge across it read as a digit (dev2 71000757:
    #: 0.27 for 5, 0.26 for none; that cell and the tile cut by the photo's edge beyond it
    #: were missed). Asked only where the cell is no tile with one corner hidden and a
    #: weak digit the board shows (hidden_weak_min), the reading tried first. Stop 86, six
    #: sets: 71000757, onyx dev 73000064 and held out 70000210 read with no mistake, 8
    #: tiles more (one digit wrong) and 9 mostly hidden; onyx dev 73000043 2 false
    #: violations, onyx held out 74000153 one tile fewer. 0 = a corner read "none" first
    two_hidden_unclear: float = 0.4
    #: ... and so is a cell outlined by a face or by edges that reads so (not only a
    #: candidate): a face showing one clear digit is no blank tile. Dev 71000000-999: +2
    #: photos with no mistake, +12 tiles, +6 digits right, 1 digit told wrong (71000696:
    #: by a neighbour already misread) and 2 left unknown
    cell_two_hidden: bool = True
    #: a candidate cell with a digit spot inside the outline of a cell read as a tile (a
    #: face or a proposed cell, mean "none" at most none_threshold) is no tile: its crops
    #: read that tile's digits, its outline (moved by the shift search, or the lattice's
    #: off there) lying over it. Dev2 71000923: a false partial tile at the photo's edge,
    #: a 3 of the tile beside it read as 0; dev, dev2, dev3, dev with faults (1,800
    #: photos): +1 photo with no mistake, dev3 76000160 (blurred by 4 % of a side) 4
    #: digits more wrong, all flagged, nothing else changed; stop 114's nine sets: onyx
    #: held out 74000177 too with no mistake, but 74000125 a tile short and onyx dev 3 real
    #: tiles fewer with 4 false ones, where two cells' outlines overlap (False: read as
    #: any other)
    candidate_on_tiles: bool = True
    #: a board tile's corner that no other tile meets, whose pixels say "no digit" at this
    #: or more (a hand over it), is reported unknown (the tile partial) where the set
    #: leaves more than one digit there: the digit chosen was a guess among those, right
    #: about half the time (dev 71000000-999: 9 of 16 corners so, 14 of them under a
    #: hand). Above 1 = off: the likeliest digit the set allows, flagged as such
    alone_none_hidden: float = 0.9
    #: a board tile whose outline was inferred from the lattice (none of its edges found),
    #: read in part (two digits known, the third corner showing none, taken as under a
    #: hand), one of those two its crops' own reading at a probability under this, is not
    #: reported: one clear digit is all that shows a tile there (dev3 76000075 and
    #: 76000227: 0.38 and 0.27, digits read in a cloth's print beside the board; of the
    #: board tiles read so under 0.5 on dev, dev2 and dev3, 3 false, 14 mostly hidden,
    #: the scoring's to find or not, and 2 real, both 0.46). A corner beyond the photo's
    #: edge is seen, not inferred: not so (dev2 71000811, a tile cut by the edge read
    #: 0.37). 0 = off
    drop_partial_unsure: float = 0.4
    #: a loose face showing three digits whose centroid lies within this many sides of a
    #: free cell next to the board, turned at most adopt_loose_turn_deg from it and of its
    #: size within adopt_loose_size (ratio), joins the board: a hand-placed arm drifted off
    #: the lattice (a face outlined too big or small still counts: its centre and
    #: direction tell); 0: never
    adopt_loose_frac: float = 0.25
    adopt_loose_turn_deg: float = 15.0
    adopt_loose_size: float = 1.35
    #: ... or within this many sides (a larger drift, a face outlined short by defocus),
    #: where its digits agree with the board's at two vertices or more (a loose tile
    #: lying so by chance rarely shows the board's digits too); at most adopt_loose_frac:
    #: never
    adopt_agree_frac: float = 0.4
    #: ... or turned up to this many degrees from the cell (a steep view, where the
    #: lattice's shape of a cell is off), where its digits so agree; at most
    #: adopt_loose_turn_deg: never (dev2 71000572: a board across a steep view, its last
    #: tile 31 degrees off the lattice's cell, digits agreeing; dev A/B 30 -> 40: +1 tile,
    #: nothing lost)
    adopt_agree_turn_deg: float = 40.0
    #: ... and reads each of its digits with at least this probability
    adopt_loose_min: float = 0.7
    #: ... or, reading each at least this, where its digits agree with the board's at two
    #: vertices or more (as a face cut by the photo's edge; at adopt_loose_min: off)
    adopt_unsure_min: float = 0.5
    #: ... and only lying against the board: the seam between it and a board tile beside
    #: it (where the tile's vertices are known) at most this fraction of a side (a loose
    #: tile beside the real photo's board: 0.29; joined on dev: 0.08-0.11)
    adopt_unsure_gap: float = 0.2
    #: ... and so too a face read clearly (every digit at adopt_loose_min or more): a seam
    #: of table that wide between it and the board is a tile set down apart, however
    #: clearly read (False: only faces read less surely; the real photo's loose 4-4-5 was
    #: kept off only by its corner read at 0.69: turned 15 degrees or shrunk to half, it
    #: read 0.96 and joined the board)
    adopt_gap_clear: bool = True
    #: ... the seam measured also against board tiles read where the lattice puts them (no
    #: outline of their own), at the lattice's outline (False: only against tiles
    #: outlined by their own edges; turned 30 degrees, the real photo's 4-4-5 met only such
    #: a tile and joined)
    adopt_gap_drawn: bool = True
    #: loose faces are tried again next to the pieces of the board joined apart from it
    #: (pipeline._adopt_apart), once those are joined (False = off)
    adopt_beside_apart: bool = True
    #: a face lying squarely on the board's lattice apart from it may lie this far off its
    #: cell (a fraction of a side), where it makes a group of two or more or meets the
    #: board's digits at two vertices (at adopt_loose_frac or less: off; dev2 71000918: two
    #: tiles beyond a hand, 0.35 and 0.55 off the lattice carried across it, sharing a
    #: vertex and meeting the board at another; dev A/B 0.45 -> 0.6: +3 tiles there, every
    #: digit right, nothing lost)
    apart_far_frac: float = 0.6
    #: ... and a face cut by the photo's edge reading two digits or more so in view joins
    #: so where they agree with the board's at two vertices or more (partial, read only
    #: where in view; dev 71000276); False = off
    adopt_loose_cut: bool = True
    #: ... and one showing a single digit in view joins where it lies squarely on its
    #: cell and that digit is the board's at its vertex (dev 71000330; dev A/B: that
    #: photo read with no mistake, nothing else changed)
    adopt_cut_one: bool = True
    #: loose faces left off are tried again (pipeline._adopt_apart) once the board's
    #: tiles under a hand or cut by the photo's edge are placed: a tile beyond a hand may
    #: meet only those at a vertex (dev 71000050); False = off
    adopt_apart_late: bool = True
    #: ... and so are the faces cut by the photo's edge lying squarely on free cells apart
    #: from the board, by their digits in view: a board runs on beyond the edge (dev3
    #: 76000038: two tiles of an arm along the top edge, read off the board); one alone
    #: only showing at least this many digits in view; 0 = off
    apart_cut_min: int = 2
    #: cells left unjoined (under a hand, or cut by the photo's edge) are tried again once
    #: those late faces are joined: one may reach the board only through them (dev2
    #: 71000915: a 5-5-5 under a cup beside a face cut by the photo's edge, joined apart;
    #: dev A/B: that photo read with no mistake, dev3 76000262 two tiles cut by the edge
    #: more, nothing else changed); False = off
    under_after_late: bool = True
    #: ... or reads two so and no digit at the third, where a tile of the board shows the
    #: digit at that vertex and the two agree with the board (a hand over one corner of
    #: a board tile; pipeline._adopt_loose); False = off
    adopt_loose_hidden: bool = True
    #: such faces lying on free cells apart from the board join it in groups joined by
    #: shared vertices whose digits agree: two or more, or one touching the board at a
    #: vertex whose digit it shows too (pipeline._adopt_apart)
    adopt_apart: bool = True
    #: ... or one alone lying exactly on its cell: centre within apart_exact_frac of a
    #: side of the cell's, turned at most apart_exact_turn_deg, of its size within
    #: apart_exact_size (ratio). On dev 71000000-479, 2 board tiles read apart lay so,
    #: and none of 456 loose tiles read clearly (the nearest: 0.12 side, 6 degrees)
    apart_exact_frac: float = 0.08
    apart_exact_turn_deg: float = 4.0
    apart_exact_size: float = 1.25
    #: a face a seam of table from the board beside it (adopt_gap_clear) still counts in
    #: its group, which joins where another of its faces has no such seam (False: such a
    #: face never joins apart; its group judged without it). Dev3 76000355: past a hand
    #: the lattice lies a quarter side off two tiles, and the seam is measured to a cell
    #: it drew beside one of them; with the other, both join (+2 tiles; no other row of
    #: the 2,080 dev photos moved)
    apart_seam_grouped: bool = True
    #: ... but not a group of two or more meeting the board nowhere whose faces share no
    #: edge, only vertices, one of which stands in a straight row: two faces alike (of its
    #: size and turned its way, as loose.printed_copies judges them in the photo), of the
    #: group or loose ones showing a digit off the board's cells, a side from it on
    #: opposite sides, their bearings within apart_rack_bend_deg of opposite. A rack's
    #: tiles, standing side by side a side apart, fit a row of one orientation's cells by
    #: chance (dev3 76000055, 76000361: two of seven rack tiles joined to the board, their
    #: digits agreeing at the vertex between); a board's tiles alike around one lie on
    #: three lines 60 degrees apart (held out with faults 70000189: a board's tiles under
    #: a hand, found as loose faces, counted as a row of two); a lone face is not judged
    #: so (dev2 71000759); 0 = off
    apart_rack_bend_deg: float = 15.0
    #: a piece of the board apart from its largest (those joined by the lattice, or any
    #: other) is reported as it lies (board in pieces, a tile touching by a corner only)
    #: where its free edge-neighbour cells are all in view and show the table, and judged
    #: as joined out of sight otherwise (vision.apart); False = flags decide alone
    apart_in_view: bool = True
    #: ... and a piece of one tile touching no other tile of the board, its free cells all
    #: showing the table, is a loose tile that lies on the lattice by chance: off the board
    apart_lone_loose: bool = True
    #: ... but not one joined by the lattice beside a cell whose crops show a digit but no
    #: whole tile (read past a hand, whatever its colour: a tile lies there under a hand
    #: or an object the table's colour; dev2 71000656, fingers over dark wood): flagged
    #: so (reading.BESIDE_SHOWN_DIGIT) and judged joined out of sight. False = colour alone
    apart_lone_digits: bool = True
    #: a board tile whose outline was inferred from the lattice (none of its edges found),
    #: its crops' first choices at fewer than two of its corners its digits, on a cell
    #: that shows the table by the same colour judge, is not there: the classifier read
    #: digits in the table's grain or print (dev3 76000096: 3, 5 and 2 read on bare
    #: granite beside the board, two of them overruled by it); False = kept (vision.apart)
    drop_inferred_on_table: bool = True
    #: ... where at least this share of the cell's middle is nearer the table's colours
    #: than the tiles' and the tiles' meeting it (the false tiles' cells on dev3: 0.78 to
    #: 1.0; a board tile on a checked cloth's light squares, 76000067, 0.46), by colour
    #: alone (the digit-blob test is no proof there: a tile is as blank under glare)
    drop_table_min: float = 0.7
    #: ... each such pixel within this of the table's colours (in the units of
    #: apart_table_chroma and apart_table_light: 1 is their match), not 1: the share so
    #: of the false tiles' cells on the dev sets 0.74 to 1.0, of two board tiles' under
    #: fingers on wood (dev 71000216, dev3 76000174) 0.65 and 0.03, where within 1 it
    #: was 0.78 and 0.81
    drop_table_near: float = 0.5
    #: ... and nearer the table's colours by this (the same units) than the tiles': a
    #: light tile on a light table lies about as near both (fresh 75000282 and 75000024,
    #: light grey tiles on white marble: 0.73 and 0.78 of their cells nearer the table,
    #: none by 0.5; the false tiles' cells on the dev sets 0.87 or more, but dev3
    #: 76000039's, a grey cloth, none)
    drop_tile_margin: float = 0.5
    #: ... or, short of that, nearer the table's colours by this smaller margin over at
    #: least drop_close_share of the cell's middle (dev faults 71000151: bare light wood
    #: beside the board, its cell 0.47 nearer by 0.5, 0.95 by 0.2; fresh 75000282's and
    #: 75000024's light grey tiles on white marble 0.73 and 0.78 nearer at no margin);
    #: drop_close_share above 1: off
    drop_close_margin: float = 0.2
    drop_close_share: float = 0.9
    #: ... and so too such a tile with two of its digits its crops' own first choices,
    #: each read under this: read unclearly in the table's grain, no tile's two digits
    #: (dev2 71000869: 2 and 1 read at 0.76 and 0.72 on bare light wood beside the
    #: board, its third corner "no digit"; of 510 such tiles on dev, dev2 and dev3 four
    #: lay on cells showing the table: that one, a board tile reading 0.92 and 0.98, and
    #: two mostly under a hand; 0 = off, two digits always kept)
    drop_table_two_max: float = 0.8
    #: ... and where no board tile's outline was found (a board fitted to its silhouette),
    #: the tiles reading all three corners their crops' own first choices at this or more
    #: are taken as seen, the tiles' colours and the table's judged round them (onyx dev
    #: 73000152: 5 and 3 read at 0.43 on bare granite beside a board of black tiles, its
    #: third corner "no digit"); above 1: nothing judged there
    drop_table_read_min: float = 0.9
    #: the cells are judged inside their triangles shrunk by this toward the centre (a
    #: tile's side face and shadow reach into the next cell under a tilted camera, and a
    #: hand-placed tile lies off its cell)
    apart_table_shrink: float = 0.55
    #: ... without the pixels within apart_table_margin (x side) of a tile's top face
    #: (the lattice's slop); the table's colours are those of the free cells around the
    #: board, from their pixels beyond apart_table_band (x side) of any tile (a tile's
    #: side faces and shadow reach past its top face)
    apart_table_margin: float = 0.12
    apart_table_band: float = 0.4
    #: a pixel is the table's when some pixel of at least apart_table_cells (share) of
    #: the free cells around the rest of the board has its colour: log chroma (log BGR
    #: less its mean) within apart_table_chroma, log lightness within apart_table_light;
    #: a cell is the table's when at least apart_table_min of its pixels are; with fewer
    #: than apart_table_refs such cells in view, nothing is judged
    apart_table_chroma: float = 0.15
    apart_table_light: float = 0.5
    apart_table_cells: float = 0.3
    apart_table_min: float = 0.45
    apart_table_refs: int = 4
    #: the free cells around the board that give the table's colours: those up to this
    #: many steps (edge to edge) from its own piece (a checked cloth's squares are bigger
    #: than a tile: two steps out, a colour of the table may show in too few of them; dev
    #: faults 71000074, a tile set apart on a dark blue square, the cells round the board
    #: on the light ones: 2 before)
    apart_table_steps: int = 4
    #: a cell cut by the photo's edge is judged by its pixels in view where at least this
    #: share of them is (a tile lying there would cover the part in view too; dev faults
    #: 71000061: a tile touching the board by a corner by the photo's bottom edge; on dev
    #: faults 7 more faulted tiles named, dev unchanged); 1 = only cells wholly in view
    #: are judged, the others taken as beyond the edge (a tile may lie there)
    apart_cell_in_view: float = 0.5
    #: ... and a free cell beyond the photo's edge (less than apart_cell_in_view of it in
    #: view) joins a piece to the rest of the board only where the rest too has a free
    #: cell beyond the edge: the tiles joining them would lie beyond it, all the way (dev
    #: faults 71000337: a tile cut by the bottom edge touching by a corner a board whose
    #: free cells are all in view); False = such a cell may always join
    apart_edge_both: bool = True
    #: ... and a pixel nearer the colour of the board's tiles (the same measure over their
    #: faces) is not the table's (light tiles missed on a light table)
    apart_not_tile: bool = True
    #: ... the tiles' colour taken from their faces' pixels within this log lightness of
    #: each face's median: the body's, not the digits' ink (dev faults 71000223: the gold
    #: digits of black tiles, and their blend into the black, took in a light wood
    #: table's colours); 0: all of them
    apart_tile_body: float = 0.3
    #: ... unless the cell shows no tile's digits (blobs as vision.spots finds them, off
    #: the tiles read by apart_table_margin, within apart_digit_reach x side of two of
    #: the cell's three digit spots): a tile lying there would show them, and where the
    #: table's colour is near the tiles' (white tiles on laminate, paper, cloth) the
    #: colour alone cannot tell (False: such a cell is never bare)
    apart_no_digit: bool = True
    apart_digit_reach: float = 0.25
    #: ... and a cell one of whose vertices a tile's corner meets showing no digit (its
    #: "none" probability at least apart_covered_none: a hand or an object over that
    #: corner) is not in plain view: the hand may lie over the tile joining the pieces,
    #: and a hand of the table's colour passes for the table (dev 71000355: a board in
    #: two pieces, the tiles between under the fingers, on a dark wood table); above 1 =
    #: never
    apart_covered_none: float = 0.5
    #: ... and so is one where a tile two of whose corners showed no digit to their own
    #: crops has a corner read from a crop moved off its outline (vision.reading.MOVED_CROP):
    #: the digit was read, but the hand that hid it may lie there still (dev 71000478: a
    #: 1-3-4 under a hand, its two corners so read, the piece it makes reported apart in
    #: view). One corner so read alone is an outline askew, not a hand: counted, dev with
    #: faults 71000222, 71000290 and 71000357 lost the tile placed apart they report
    apart_covered_moved: bool = True
    #: ... and so is one where too little table is in view to judge the cells by colour
    #: (fewer than apart_table_refs cells of it): a piece beside such a vertex is joined
    #: out of sight, the others are reported as they lie (dev 71000587: a hand over the
    #: middle of a board filling the photo, "in 3 pieces"); False = nothing is judged then
    apart_covered_unjudged: bool = True
    #: ... and a pixel whose three channels all reach apart_clipped (glare or a blown-out
    #: exposure: no colour left to judge) is no proof of table, a tile under that glare
    #: showing the same white, its digits washed out (dev 71000340: 8 board tiles lost in
    #: a glare patch, the board read as 3 pieces "apart in view"), unless at least
    #: apart_table_cells of the table's cells around the board are mostly so (a blown-out
    #: white table); 256 = never
    apart_clipped: int = 250
    #: a cell with a loose face lying askew on it is still read; if it shows a board
    #: tile, the askew face is dropped (False: such a cell is skipped)
    shadow_loose: bool = True
    #: a loose face lying squarely on such a cell stays loose until the cell is found to
    #: hold a board tile (as one lying askew does); False: it is dropped for the cell
    keep_absorbed: bool = True
    #: a board cell read where the lattice puts it, with one loose face lying on it as
    #: adopt_loose_* has it (digits read clearly), is read from the face's outline instead
    #: (a drifted arm: the lattice's crops miss its digits)
    drift_face_over_lattice: bool = True
    #: ... and so is a cell cut by the photo's edge, joined as a partial tile, under a loose
    #: face cut there too (dev 71000200: the lattice a fifth of a side off the tile, its 5
    #: read as 4 at 0.33; the face's outline reads 5 at 0.98), unless the face's outline,
    #: drawn on past the edge, puts out of view a corner the lattice's shows (dev3
    #: 76000221). Dev A/B: dev and dev with faults 71000200 read with no mistake, dev faults
    #: 71000211 too (another board read then, a tile under a hand more); dev 71000197 a
    #: tile cut by the edge more, one digit of it wrong (0.49); no other row moved
    drift_face_cut: bool = True
    #: ... and its face then fixes the cell's vertices, so that loose faces lying on the
    #: cells next to it join as for adopt_loose_frac (dev 71000402: the next tile of a
    #: drifted arm lay 0.7 side off the lattice's cell); False = off
    adopt_after_drift: bool = True
    #: candidate cells read as tiles that join the board only through faces joined off
    #: the lattice (adopted above) join then too: a drifted arm's next tile, read where
    #: those faces put it (cells beside joined tiles); False = dropped (dev A/B: +10
    #: tiles on 71000022, 069 and 433, every digit right, nothing lost)
    rejoin_after_adopt: bool = True
    #: candidates read as tiles that join the board only through tiles placed under a
    #: hand or cut by the photo's edge (joined after the board's digits are chosen) are
    #: read again with those tiles as part of the board: reconstruct runs a second time;
    #: False = dropped
    bridge_under_hand: bool = True
    #: ... and candidates in full view read clearly at every corner that meet such a
    #: tile at a vertex only, past a cell read past the hand (the full_at_vertex test,
    #: made again with the digits those tiles show): the tile between lies under the
    #: hand too (dev 71000403: two tiles beyond two tiles under a hand); False = dropped
    met_past_late: bool = True
    #: cells cut by the photo's edge next to a tile joined in reconstruct (a drifted arm,
    #: a face found apart) are read too, and join as partial like the fit's candidates
    #: (dev 71000402); False = off
    cut_beside_joined: bool = True
    #: ... and those in full view too (False: only those cut by the edge); their outline
    #: is predicted locally, the vertices those tiles fix completed into parallelograms
    full_beside_joined: bool = True
    #: ... in at most this many rounds, while each adds tiles (an arm drifting on; dev
    #: A/B, 3 -> 6 rounds: +7 tiles on 71000022 and 447, every digit right)
    beside_joined_rounds: int = 6
    #: rounds of proposing cells next to the board
    fill_rounds: int = 8
    #: the homography fitted to the faces is carried outward by the tiles' digits, found
    #: as blobs (vision.spots): up to digit_refit_rounds rings of cells (0 = never), a
    #: cell confirmed where a blob lies within digit_refit_gate x side of each of its
    #: three digit spots and the three moved alike (within digit_refit_rigid x side);
    #: refitted by RANSAC (digit_refit_ransac x side) and kept when at least
    #: digit_refit_min_cells cells past the faces confirm it. Blobs: difference-of-
    #: Gaussians maxima above digit_blob_min grey levels and digit_blob_level x the
    #: median strength at the faces' own digits
    digit_refit_rounds: int = 12
    digit_refit_gate: float = 0.2
    digit_refit_rigid: float = 0.1
    digit_refit_ransac: float = 0.1
    digit_refit_min_cells: int = 3
    digit_blob_min: float = 4.0
    digit_blob_level: float = 0.35
    #: a silhouette search judges the regions' outlines on this many threads (1 = in
    #: turn; the boards found are the same: vision.silhouette._boards_in)
    silhouette_threads: int = 2
    #: a board of fewer cells than this is searched for again from its silhouette
    #: (vision.silhouette: seams hidden; 0 = never)
    silhouette_below: int = 8
    #: ... and taken in place of a board of 3 or more faces where it keeps half of them or
    #: more: its own cells' faces, and those of its cells' size lying on its cells or
    #: proposed cells within this many sides of their centres (0: its own cells' only;
    #: dev3 76000346: a defocused board of 38 tiles, 3 faces found by their edges, all
    #: within 0.12 on the silhouette's lattice but 1 its own cell; 10 tiles read, all at
    #: one arm's end. Dev2 71000572: a silhouette's lattice across a small board's 5
    #: faces, 2 within 0.15, 4 within 0.25)
    silhouette_kept_off: float = 0.15
    #: ... on a copy at most this many px on its longest side
    silhouette_max_side: int = 1100
    #: ... among regions of even tone at these percentiles of the grey levels
    silhouette_levels: tuple[float, ...] = (3, 6, 10, 20, 30, 40, 50, 60, 70, 80, 90, 94, 97)
    #: ... then (ranked after every board those show) regions darker or lighter by
    #: silhouette_local_c grey levels than the mean around them, over these fractions of
    #: the photo's longest side (uneven light); () = none
    silhouette_local: tuple[float, ...] = (0.3,)
    silhouette_local_c: float = 5.0
    #: ... also regions lying in another region's hole (dark tiles on a light cloth spread
    #: on a dark table; False: the outermost regions only)
    silhouette_nested: bool = True
    #: ... covering at most this fraction of the photo
    silhouette_max_area: float = 0.3
    #: ... holding at least this many cells
    silhouette_min_cells: int = 4
    #: ... whose outline is straight along three directions at this fraction of its points
    #: (0.25: on speckled granite the outline of a dark board frays into grains; 0.3 lost it)
    silhouette_min_straight: float = 0.25
    #: ... each of the three directions holding more than this share of its straight
    #: points (within 3 degrees either way)
    silhouette_peak_min: float = 0.05
    #: ... and where no search reads a board (the last one the reader makes), the tone
    #: regions whose outlines fall short of that are tried again at this share (0 =
    #: never): in a steep view of a small board one direction's sides are short (onyx
    #: dev 73000081, 12 black tiles at 35 degrees or more on paper: its third direction
    #: held 0.04 of them, and no board was found). Not as the first bar, nor as the first
    #: search's last fallback: an outline so fitted outranked better boards (onyx dev
    #: 73000178: 22 of 22 tiles to 8) or was read before a search that reads the board
    #: right (dev 71000325: 16 of 16 to 12, 4 digits wrong)
    silhouette_short_peak: float = 0.03
    #: ... (of its points off the photo's frame; True: the frame's straight runs count as
    #: the outline's sides, and the shares are of all its points, as before onyx 73000092)
    silhouette_frame_sides: bool = False
    #: ... and where no outline shows a board so, nor faces found by their edges, the grey
    #: regions are tried again at this fraction (0 = never): black tiles on granite fray
    #: into its grains (dev 71000139, 31 onyx tiles: the board's outline was 0.13
    #: straight, none read)
    silhouette_ragged_straight: float = 0.1
    #: where an outline shows no board as it is, fit it again with its perspective
    #: undone: the table's horizon found from the three directions' vanishing points
    #: (runs of at least silhouette_rectify_run outline points within
    #: silhouette_rectify_tol_deg of a direction; the three points on one line within
    #: silhouette_rectify_collinear of the singular values), only where the scale
    #: changes by more than silhouette_rectify_min across the outline. Dev 71000295
    #: (black tiles, 44 degree view): 0 -> 50 of 50 tiles, every digit right
    silhouette_rectify: bool = True
    silhouette_rectify_tol_deg: float = 15.0
    silhouette_rectify_run: int = 10
    silhouette_rectify_collinear: float = 0.02
    silhouette_rectify_min: float = 0.1
    #: the side spacing's periodicity must reach this (0-1)
    silhouette_period_min: float = 0.4
    #: and the grey level at the cells' digit spots depart from the face's tone this many
    #: times as far as at plain spots between them (see vision.silhouette.digit_score);
    #: boards found from the silhouette scored 3.7-34 on dev photos, and at 3.0 the 3.7
    #: one (motion blur 2.6 px) added 39 tiles with 71 of 117 digits read wrong
    silhouette_digit_min: float = 4.0
    #: when no lattice fitted to a region's outline shows its digits where tiles carry
    #: them, each is tried again moved (up to this fraction of a side) to where they show
    #: best: an outline that takes in the tiles' side faces on one side only shifts the
    #: lattice (0 = off). Dev seeds 71000120-239: 71000169 (black tiles on marble) 0 -> 28
    #: of 30 tiles, all digits right
    silhouette_align_frac: float = 0.5
    #: ... for lattices of tiles at least this many px a side: searching ~150 shifts of a
    #: lattice of tiny cells finds digit-like evidence by chance (dev 71000054: a 12.8 px
    #: lattice over three 207 px tiles replaced the two found by their edges)
    silhouette_align_min_side: float = 24.0
    #: ... also where faces found by their edges lie on the board (the search for the
    #: outline holding them), for the fit with its perspective undone too; off in the
    #: first search (a board of faces fixes the lattice: moved, dev 71000461 and held out
    #: 70000098 read a digit or two wrong), on for the rival it makes (``near_rival``)
    silhouette_align_near: bool = False
    #: ... and each is also fitted to its digits cell by cell: every cell moved (up to
    #: this fraction of a side) to where its own digit spots show best, a homography
    #: fitted (RANSAC) to the moved corners of the cells that show them clearly, for a
    #: few rounds (0 = off). An outline's lattice is often a few % off in size and shape
    #: (rounded corners, gaps), which a shift cannot undo across a board: dev 71000223
    #: (black tiles on light wood) scored 1.8 before, 28 after (29 at the true lattice)
    silhouette_refit_reach: float = 0.35
    #: ... rounds of it
    silhouette_refit_rounds: int = 4
    #: ... a cell counts where its digit spots depart this many times as far as its
    #: plain spots (digit_score of the cell alone)
    silhouette_refit_cell_min: float = 3.0
    #: ... each round's RANSAC tries at most this many samples (OpenCV's default: 2000).
    #: A fit whose cells agree stops well before (its count of samples needed falls
    #: as its consensus grows: the same answer); one over a patch of table, where a
    #: quarter of the cells agree by chance, ran all 2000 and was refused all the same
    #: (12 MP dev photo 72000012: 1.65 -> 1.38 s). At 500, read beside the uncapped code:
    #: 24 12 MP dev photos (seeds 72000000-23) 11.4 -> 11.0 s, every reading the same
    #: (results/ab_code_stop51_12mp.json); 80 dev photos and the 13 samples the same too
    #: (ab_code_stop51_ransac_cap.json)
    silhouette_refit_iters: int = 500
    #: ... its tile size may change by at most this factor
    silhouette_refit_size: float = 1.15
    #: ... and it is kept only if at least this fraction of its cells then show their
    #: digits (boards refitted on dev: 100 %; a checked cloth's squares: 73 %)
    silhouette_refit_shown: float = 0.85
    #: a board guess whose cells show their digits (as the refit counts them) in fewer
    #: than this fraction of them is refitted to its digits in any case (dev A/B at 0.8:
    #: +14 tiles, one photo more read with no mistake; at 0.9, against 0.8: 71000315 +2
    #: tiles, 71000045 -2 and no longer read with no mistake; at 1.0, every guess: 71000045
    #: 2 tiles fewer, its far arm's tip lost)
    silhouette_refit_below: float = 0.8
    #: its cells' faces within this many grey levels (or 4 MADs) of their median tone
    silhouette_tone_tol: float = 20.0
    #: where no board is read any other way (faces joined by their edges, the boards of
    #: every silhouette, faces of other sizes), one is grown from single faces
    #: (vision.silhouette.boards_from_faces): each of up to this many faces whose digit
    #: spots show digits
    #: (silhouette_refit_cell_min) seeds a lattice, grown cell by cell, ring after ring,
    #: into the cells next to it that show digits at their spots (each moved up to
    #: face_seed_reach of a side to where they show best) of the seed's tone
    #: (silhouette_tone_tol), the homography refitted to them each ring (0 = never). A
    #: defocused board on a checked cloth whose light squares have the tiles' grey: no
    #: seam joins two faces, no outline parts the board from the squares, yet the
    #: classifier reads its digits (dev 71000532: 0 -> 30 of 30 tiles, every digit
    #: right; 71000042: 0 -> 41 of 41, 122 of 123 digits)
    face_seed_boards: int = 12
    face_seed_reach: float = 0.15
    #: ... for at most this many rings
    face_seed_rounds: int = 20
    #: a board read with at least this many cells next to it showing digits on a face of
    #: its tiles' tone (each moved up to face_seed_reach of a side; 0 = never) is weighed
    #: against a board grown by their digits from its own tiles: one that reads more
    #: tiles, every tile of the first where it lay with its digits, and none read off the
    #: board, replaces it (part of a board beyond a gap its fit did not cross). Dev A/B
    #: (480 photos): 4 more read with no mistake (71000351: 41 -> 48 of 48 tiles;
    #: 71000022: 25 -> 37 of 37), none fewer; the grown board read costs 0.18-0.45 s
    #: on the samples it fires on (docs/MEASUREMENTS.md)
    grown_rival_front: int = 1
    #: ... grown from at most this many of the board's tiles (those whose digit spots
    #: show best first), each in turn until one replaces it. Onyx dev 73000116 (a board
    #: of 51 black tiles on a dark cloth, an arm drifted off its lattice in the shade):
    #: 34 tiles read, 51 from its second tile; 73000041: 39 of 41, 41 from its third.
    #: Dev and dev2 (1,000 photos): one more tile (mostly hidden), no other row read
    #: otherwise (was 1). 5 (was 3): dev3 76000074 21 -> 32 of 32 tiles (from its fourth),
    #: 76000386 46 -> 48 of 48 (its fifth), 76000019 48 -> 50 of 51; no board row read
    #: otherwise on dev, dev2 and onyx dev (two loose tiles more)
    grown_rival_seeds: int = 5
    #: ... and may take in a tile the first read off the board where it reads that
    #: tile's digits (a drifted arm's far tile; False: never)
    grown_rival_off_alike: bool = True
    #: ... and a cell next to the board on a tile read off it showing a digit is a front
    #: too: an arm drifted off the lattice, its tiles read off the board on outlines of
    #: their own (dev3 76000143: 13 -> 16 of 16 tiles, now with no mistake; on dev, dev2,
    #: dev faults and onyx dev no board row read otherwise, one false loose tile more on
    #: onyx dev 73000011); where only such cells show digits, the board grown must read
    #: at least this many tiles more than the first (the real photo: its loose 4-4-5, set
    #: down a little apart beside the board, was taken onto it in 4 of 96 turned and
    #: shrunk copies with no such bar; an arm has two tiles or more); 0 = only cells on
    #: no such tile are fronts
    grown_rival_off_front: int = 2
    #: ... and may read a tile of the first otherwise where the first read no corner of it
    #: at this probability and it reads each digit at grown_rival_clear or more, as its
    #: crop's first choice (0: never)
    grown_rival_unsure: float = 0.6
    grown_rival_clear: float = 0.6
    #: ... and may read a tile of the first (on the board or off it) otherwise at the
    #: corners where the first read no digit at this probability or more (above 1: only
    #: as above). Dev faults 71000295 (51 onyx tiles; the first board's lattice off the
    #: tiles, whose crops cut digits in two): 18 -> 51 tiles, read with no mistake;
    #: 71000324 42 -> 46; onyx dev 73000095 13 -> 17, no mistake; dev2 71000854 +1, no
    #: mistake, 71000811 25 -> 27; one loss, dev2 71000758 (+1 tile, 2 digits wrong
    #: more). Fresh 75000036, where it was found: 5 -> 48 of 48
    grown_rival_sure: float = 0.9
    #: ... and may read once two tiles of the first lying on one another (one tile read
    #: twice, on two cells its bent lattice folds together; False: never). Onyx dev
    #: 73000056: 38 tiles read, one of them twice; grown, 42 of 42, no mistake; so too
    #: onyx dev 73000073 (49 read, 5 false; 46 of 46) and dev 71000250 (22 read, 3
    #: false; 20 of 20)
    grown_rival_twice: bool = True
    #: ... and may read a tile of the first otherwise where it reads it as the first's own
    #: crops show it, a digit at each corner (the first chose digits against them to
    #: agree with its neighbours: a lattice off the tiles; False: never). Dev faults
    #: 71000214: +4 tiles, read with no mistake
    grown_rival_pixels: bool = True
    #: ... and, where one does not outgrow it only for at most this many tiles it adds
    #: that do not show their digits (their crops' first choices at two corners: a tile
    #: mostly under a hand, its digits there chosen to agree with the board's), it is
    #: weighed again without them (0: never). Dev 71000094: 42 -> 44 of 44 tiles, now
    #: with no mistake (a tile under fingers, two digits in view, and one mostly under
    #: them); dev faults 71000357 17 -> 27 of 29 tiles, 71000344 18 -> 21, 71000201 and
    #: 71000240 a tile more; no other row of dev, dev2, dev3, dev faults, onyx dev or
    #: checked-cloth dev read otherwise. More than one (any number): onyx dev 73000014,
    #: a blurred board, 24 -> 30 tiles but 17 digits more wrong (7 of its 13 tiles added
    #: dropped); dev2 71000888 a tile more, a digit more wrong
    grown_rival_drop_unshown: int = 1
    #: ... and, where none of those replaced it, at most this many boards grown from the
    #: seeds the tiles' centre pins place (see pin_top; kept where their cells show the
    #: pins, as there) are weighed against it alike (0: never). A board fitted to a steep
    #: view's far tiles strays off the near ones, and a board grown from its own tiles
    #: follows that lattice; the pins show where each tile's centre is. Fresh 75000249
    #: (11 black tiles, 35+ degrees of tilt), where it was found: 6 -> 11 of 11, every
    #: digit right
    pin_rivals: int = 1
    #: ... and they are weighed against a board grown from the first's tiles that took
    #: its place as well, needing one tile more (False: not tried once one did): that
    #: board follows the first's lattice, and an arm drifted off it shows no digit on its
    #: cells. Checked-cloth dev 77000014 10 -> 22 -> 34 of 34 tiles; fresh 75000251 9 ->
    #: 10, every digit right; onyx held out 74000014 33 -> 38; no other row of the nine
    #: sets (ab_rows_stop106_pins); 20 onyx dev photos 1.02x the time
    pin_rivals_after_grown: bool = True
    #: ... only where fewer of the board's tiles than this share of them are faces fixing
    #: its lattice (cells outlined by their edges): a lattice fitted to many faces lies on
    #: them. On the first 20 dev photos the pins' boards read that way cost 21 % more time
    #: and changed no reading; with this bar, none of those is tried
    pin_rival_faces: float = 0.5
    #: ... their pins sought within this many sides of the board's tiles (a whole photo's
    #: pins cost 0.14 s at 1024 x 768; such a board holds the first's tiles)
    pin_rival_reach: float = 1.5
    #: a board grown against the board read that does not replace it gives it its tiles
    #: beside it that the first missed, each corner's digit its crop's first choice at
    #: this or more, squarely on a free cell next to it, agreeing with its digits at two
    #: vertices or more (pipeline._beside_from_rival); above 1: never
    rival_beside_clear: float = 0.9
    #: when no region of even grey outlines a board, regions of even colour are tried:
    #: the photo's colour channels (CIE Lab a, b) beyond these percentiles (below for
    #: those under 50, above for the others; empty = never). Dev photo 71000072 (grey
    #: tiles on beige laminate, defocus 1.9 px): 1 -> 51 of 51 tiles, 142 of 153 digits
    #: right; no other change on dev seeds 71000000-239
    silhouette_colour_levels: tuple[float, ...] = (2, 4, 7, 10, 15, 85, 90, 93, 96, 98)
    #: ... after a Gaussian blur of this sigma (px): a JPEG stores colour in blocks at
    #: half resolution (on 71000072 sigma 2-3 found no board, 4 and 5 the whole board)
    silhouette_colour_blur: float = 4.0
    #: ... and where those outline none either, each colour channel parted at the level
    #: between its two tones (Otsu's), after a Gaussian blur of this sigma (px; 0 =
    #: never): where the table's colour fills half the photo, every percentile level lies
    #: within the tiles' colour or the table's. Dev3 76000160 (grey tiles on brown wood):
    #: 6 -> 49 of 51 tiles; onyx dev 73000100: 48 -> 50 of 50; no other board row moved
    #: on dev, dev2, dev3 and onyx dev (six loose tiles did, two for the worse)
    silhouette_colour_split: float = 2.0
    #: a board fitted to its silhouette is kept only if the classifier reads its corners
    #: with at least this mean top digit probability: on dev photos, boards read 90 %+
    #: right scored 0.62-0.95; 71000052 (motion blur 2.6 px, 36 px tiles; seen only with
    #: silhouette_digit_min at 2.9) scored 0.41 and read 46 of 108 digits right
    #: (0.55: dev 71000085, 24 px tiles on a busy oilcloth, scored 0.506 once the lattice
    #: was fitted to its digits and read 71 of 87 digits right, a board not to be trusted)
    silhouette_read_min: float = 0.55
    #: a board fitted to its silhouette is also read with its cells moved onto their
    #: digits, found as blobs (vision.spots.snap_to_digit_blobs, its gates
    #: digit_refit_gate and digit_refit_rigid), in this many rounds (0 = never); that
    #: reading is kept where it has more tiles, or as many with more of them read at
    #: snap_clear or more at every digit in view. A dark tile's side faces seen at a
    #: slant widen the board's outline, and a board placed by hand drifts (dev 71000855:
    #: black tiles at a steep view, the lattice 9 % too big and 18 px off 163 px tiles, 4
    #: of 5 tiles read -> 5). Taken without reading both, blurred boards lost digits
    #: (dev 71000072: cells moved 1-3 px, 145 -> 129 of 153 digits right)
    silhouette_snap_rounds: int = 2
    #: ... the vertices of no cell so moved following those moved, as one homography
    #: (False: they stay; a lattice too big leaves its far cells beyond the gates)
    silhouette_snap_follow: bool = True
    snap_clear: float = 0.9
    #: a board fitted to its silhouette on which no tile is read gives way to the faces
    #: found by their edges, if any (dev 71000379: a lattice of half the tiles' size)
    silhouette_fallback: bool = True
    #: ... whose reading stands only where it reads a board, or at least as many tiles
    #: off it showing a digit as the silhouette's (False: any digit read; dev 71000348:
    #: the faces by their edges, a lattice twice the tiles' size, read a clear loose
    #: 0-1-1 as blank shapes and the silhouette's reading of it at 0.96 was dropped)
    fallback_keeps_more: bool = True
    #: ... and a board found by its edges at least this (its outlines are evidence of
    #: tiles of their own, so a lower bar): dev seeds 71000000-239 read 0.19 (1 of 3
    #: digits right) and 0.29 (52 of 105), then 0.50 (142 of 153) and up
    board_read_min: float = 0.4
    #: ... and (either way) a board none of whose corners in view is read at least this
    #: clearly is too blurred to read too (0 = off): dev 71000350 and 71000818 read a
    #: board of 1 and 7 tiles the table does not have, at best 0.65 and 0.67, on blurred
    #: photos whose boards lay elsewhere; no real board of 1000 dev photos read under 0.76
    board_clear_top: float = 0.9
    #: a board too blurred to read takes with it the readings off it centred on its cells
    #: (one outlined, or proposed inside its silhouette): its own faces read as blank, or
    #: loose faces over it, are pieces of it, not tiles off it (dev 71000749: 13 "tiles
    #: off the board", 12 of them on the blurred board); not those showing every digit
    #: at adopt_loose_min or more (a tile of its own, read where the board's are not)
    blurred_board_faces: bool = True
    #: a reading off the board whose centre lies within a third of a side of a board
    #: tile's is that tile read twice (a face of its own beside the cell the board read it
    #: on: dev 71000197, 71000632) and is dropped, the board's reading kept (False = off)
    off_on_board: bool = True
    #: a photo on which the board chosen read no digit: this many boards fitted to other
    #: silhouettes are read in turn, the first that reads kept
    other_boards: int = 3
    #: ... and so on any photo whose board chosen read no tile, even where loose tiles
    #: were read beside it (False: only where no digit was read at all; dev faults
    #: 71000331, 47 tiles found by the board's silhouette after 5 loose tiles read beside
    #: an empty lattice: one more photo with no mistake, recall 96.72 % to 97.13 %; dev
    #: and dev2 the same but for a digit more right on 71000461, and dev faults 71000247
    #: two). So too the searches below (other_boards_close, other_sizes)
    search_past_loose: bool = True
    #: a board grown from single faces by their digits is sought where the board read
    #: has fewer tiles than this (1: only where none is read). Dev2 71000922 (motion
    #: blur, a light board on a light table, no seam found): one tile read on the
    #: lattice, ten faces beside it as loose; grown, 40 of its 41 tiles. At 2 no other
    #: dev, dev2, dev faults or held-out photo whose board read one tile changed; at 3 none
    #: of those reading two
    grown_below: int = 2
    #: where still no board is read (fewer than grown_below tiles), one is grown as
    #: face_seed_boards grows one from seeds found by sliding the shape of a face found
    #: by its edges (a loose or face-down tile: the set's tiles are all one size) across
    #: the detection copy, turned every slid_turn_deg over 120 degrees (both ways up), in
    #: steps of slid_step of its side, to where its digit spots show digits most (at
    #: least silhouette_refit_cell_min; no two seeds within slid_apart of a side). The
    #: shapes: the largest well-outlined faces (fill 0.85 or more, the longest side at
    #: most 1.5 times the shortest, at least silhouette_align_min_side px), one per size
    #: (within size_tolerance), at most slid_templates of them (0 = never). Dark tiles on
    #: a dark table show no seam and no outline, and their light digits' strokes are
    #: outlined as faces of their own (dev faults 71000379: one tile set apart read, the
    #: board of 11 beside it never found)
    slid_templates: int = 1
    slid_step: float = 0.1
    slid_turn_deg: float = 5.0
    slid_apart: float = 0.6
    #: still none: one grown (as above) from seeds the tiles' centre pins place. A pin is a
    #: small round spot (the maxima of the scale-normalised Laplacian at each of pin_radii
    #: px, either sign, over pin_response, the pin_top strongest per radius and sign that
    #: stand out so; round: its Hessian's smaller eigenvalue at least pin_round of its
    #: larger, as a disc seen at 55 degrees still is) at least pin_contrast grey levels off
    #: the face around it (its rings at 2 and 3 radii, their absolute deviation (its
    #: pin_ring_quantile) under pin_ring_dev of that contrast: a plain face, not a digit's
    #: stroke nor a table's speckle); a pin with three pins of its size around it (8 to 25
    #: radii off) whose centroid it is (within pin_centroid_err of their mean distance: the
    #: cells across its tile's edges, in any affine view) seeds its cell, each corner twice
    #: the pin less the pin across the opposite edge. Seeds kept as the slid ones are
    #: (digits shown, apart, at most face_seed_boards); a board grown from them is kept only
    #: with a pin of one radius and sign within pin_near of a side of the centre of at least
    #: pin_share of its cells (a check cloth's blurred squares placed cells too, and their
    #: board was read: dev 71000350, 33 false tiles). Black tiles on granite joined edge to
    #: edge show no seam, no outline and no face of their size (onyx dev 73000121: none of
    #: 51 read; 51 so, every digit right) (0 = never)
    pin_top: int = 300
    pin_radii: tuple[float, ...] = (1.5, 2.5, 4.0, 6.0, 9.0)
    pin_contrast: float = 25.0
    pin_response: float = 20.0
    pin_round: float = 0.3
    pin_ring_dev: float = 0.35
    #: ... the ring's deviation taken as this quantile of its points' (0.5: the median
    #: absolute deviation, as before stop 98). At 0.9 a spot with a stroke within three
    #: radii (a digit's round part beside the rest of it) is no pin: such spots crowded a
    #: tile's pins out of each other's ten nearest, and no cell was placed (onyx dev
    #: 73000062, 13 black tiles on granite: none read, 13 now, every digit right)
    pin_ring_quantile: float = 0.9
    pin_centroid_err: float = 0.2
    pin_near: float = 0.1
    pin_share: float = 0.5
    #: a photo whose only reading is a tile cut by its edge, every digit in view read at
    #: this or more, is read (that tile off the board), not refused as showing no tile
    #: (dev 71000380: the board under a blurred hand, 0 and 5 read at 0.97 and 0.93; 0 =
    #: refused as before). 0.9, as board_clear_top: dev 71000321 with its board search cut
    #: short read a cloth's printed triangle as 0 and 2 at 0.87 and 0.80
    partial_off_clear: float = 0.9
    #: ... and when those read nothing either, the boards of the tone regions closed by
    #: these kernels (px of the silhouette search's copy): light digits touching the
    #: edge of a board of small dark tiles cut notches into its outline that a 3 px
    #: closing leaves, and no lattice fits it
    #: (dev 71000325; dev A/B: "no tiles found" -> read with no mistake, nothing else
    #: changed); only then: searched with the others, they outranked better boards
    #: (3 photos lost tiles, one every tile)
    other_boards_close: tuple[int, ...] = (9,)
    #: ... searching again, with those kernels, the colour regions and frayed outlines
    #: too when the closed tone regions show no board (False: not; neither depends on
    #: the kernel, so the first search's are only repeated)
    other_boards_close_fallbacks: bool = False
    #: ... and when those read nothing either, the boards of the tone regions at these
    #: further percentiles of the grey levels, between silhouette_levels' (a board
    #: outlined at one grey level only: dev2 71000829, seven onyx tiles under a hand, 0 ->
    #: 7 tiles; dev faults 71000145, 0 -> 28; () = none). Only then: searched with the
    #: others, they outranked better boards (onyx dev: 25 rows moved, 10 for the worse:
    #: 73000073 40 of its 46 tiles right, was 46; 73000148 13 digits wrong, was none)
    other_boards_levels: tuple[float, ...] = (15, 25, 35, 45, 55, 65, 75, 85)
    #: ... then, if none reads, this many boards of faces found by their edges at other
    #: sizes than those read (a checked cloth's squares cut into triangles outnumber a
    #: few big tiles lying on it; dev A/B: 71000265, "no tiles found" -> 3 of 4 tiles and
    #: a loose one, every digit right; nothing else changed)
    other_sizes: int = 3
    #: ... the one reading the most tiles whose every digit has at least this
    #: probability is kept, if its board has two tiles or more (none: the photo still
    #: shows no tile; without this bar the blurred dev 71000085 read one tile, two of
    #: its digits wrong)
    other_sizes_clear: float = 0.7
    #: ... and where none reads a board of two tiles or more nor any other search one, a
    #: tile read alone there, every digit at least this, is reported off the board (the
    #: first such size's, with the tiles showing digits read there): loose tiles in view,
    #: not "no tiles found" (dev 71000829: a clear 0-0-5 beside a board under a hand;
    #: sample 12: 1-3-4 and 1-5-5 beside a board too blurred to find); above 1: never
    alone_clear: float = 0.9
    #: ... and so too, there, a loose face read clearly (not cut by the photo's edge,
    #: every digit at least alone_clear), with the others showing digits (dev3 76000177:
    #: a 0-5-5 read at 0.96-0.98 beside a board of onyx tiles under a hand, "no tiles
    #: found")
    alone_loose: bool = True
    #: a board fitted to its silhouette gives way to the next this many boards other
    #: silhouettes show, where one of them reads more tiles ...
    rival_boards: int = 1
    #: ... when tiles were read on fewer than this share of its cells (or the faces found
    #: by their edges were read instead): most boards read whole, and another read costs
    #: a fifth to a half of the photo's read time
    rival_below: float = 0.5
    #: ... or when a later silhouette (of local tone: those come last) shows more digit
    #: evidence over its cells (False: not for that)
    rival_outranked: bool = True
    #: a board of 3 or more faces joined by their edges whose outline shows no board of
    #: its lattice (``silhouette_below``) is weighed, after every other search, against
    #: that outline's board with its lattice moved onto the digits
    #: (``silhouette_align_near``), where it read tiles on fewer than ``near_rival_share``
    #: of that board's cells: a steep view's outline shifts the faces' lattice (onyx dev
    #: 73000011: 7 of 32 tiles read by the faces' fit) (False: never)
    near_rival: bool = True
    near_rival_share: float = 0.5

    # --- read ------------------------------------------------------------------------
    #: a loose tile bigger than the board's is also read on outlines shrunk to these
    #: fractions of the board's tile size (toward each corner, side middle, centre)
    loose_shrink: tuple[float, ...] = (1.0, 0.9)
    #: ... for at most this many loose tiles per photo
    loose_variants_max: int = 8
    #: a loose face lying alone on a candidate cell next to the board, at least this
    #: fraction of the cell's side (not a speck), is also read at the cell's outline, in
    #: full view: a hand over a board tile cuts its face short, and its digits read
    #: weakly or not at all (dev 71000412: 0.54 and 0.82 on the face, 0.97 and 0.97 on
    #: the cell; see pipeline._read_tiles for when that outline is kept; above 1 = never)
    cell_outline_size: float = 0.75
    #: a board corner whose crop shows no digit while the tile's two others do is read
    #: again from crops moved a little (an outline found askew cuts its digit off); a
    #: moved crop's reading replaces it when its digit has at least this probability
    #: (above 1: never)
    reread_min: float = 0.85
    #: ... moves: corner pulled in toward the centre / pushed out (x its distance), and
    #: the whole outline shifted (x side, six directions). Pushed out as far as half its
    #: distance: a steep view's outer corner outlined short, the tile's side face taken
    #: for the table (dev2: +3 photos with no mistake, +16 digits right, nothing lost)
    reread_pull: tuple[float, ...] = (0.12, 0.25, -0.12, -0.3, -0.5)
    reread_shift: float = 0.08
    #: ... for at most this many corners per photo
    reread_max: int = 40
    #: ... and also with that corner where the tile's neighbour across the opposite edge
    #: (outlined by a face of its own) puts it: the parallelogram the two complete (tiles
    #: are locally one affine lattice, where the homography of a thin or bent board may lie
    #: a third of a side off; dev 71000725: a face outlined short at its apex, the lattice
    #: putting it 0.6 of a side away, a 2 read as no digit)
    reread_parallelogram: bool = True
    #: ... and so is such a corner of a loose face in full view whose two other digits
    #: read at least this (above 1: only board corners): its outline is its own edges
    #: alone, with no lattice to correct it (the real photo turned 45 degrees: the loose
    #: 0-2-5's outline cut short through its 2, reported as 0-1-5 with no clear digit)
    reread_loose_min: float = 0.85
    #: ... and so is a corner in view of a loose face cut by the photo's edge (no corner
    #: showing no digit) whose digit reads under this (0: never): its outline, its own
    #: edges alone, may be cut short there, and it may be the board's tile read from it
    #: (drift_face_cut). A moved crop's reading replaces it only where it reads another
    #: digit (the same one read more surely would only hide its flag). Dev 71000197: a
    #: face traced 0.12 of a side short at its corner, a 3 read as 2 at 0.44, 3 at 0.89
    #: moved. Board cells so read again (the lattice's unsure digits) lost: dev 71000034,
    #: 71000043, a digit and three wrong more, nothing gained
    reread_unsure_below: float = 0.6
    #: ... and so are the two corners of a board cell in full view showing no digit, its
    #: third's read at reread_loose_min or more (a hand over them, or the lattice's outline
    #: drawn off its tile under a hand), a moved crop's reading taken where it reaches this
    #: (above 1: never) and agrees with the digits other cells read clearly at that vertex
    #: (moved, a crop can land on a finger or a neighbour: dev 71000265 read a finger's
    #: edge as 0 at 0.86). Dev2 71000591: a 5-5-5 under a hand, a 5 read at 0.92 moved
    reread_two_none_min: float = 0.9
    #: a loose face in full view showing digits at two corners or more, one of them read
    #: under move_loose_below, is read again from its outline moved each of
    #: move_loose_fracs x the board's side each of six ways (60 degrees apart); the
    #: clearest move's reading replaces its own where every corner there reads a digit at
    #: move_loose_min or more and another move reads the same three so too (two crops of
    #: one digit agree: a table's print rarely reads so twice); its outline stays where it
    #: was found (the seam to the board is measured from it). A loose tile seen obliquely
    #: has its side below its face, and the face found with it puts every crop beside its
    #: digit (the real
    #: photo at 60 % size: its loose 4-4-5 read 5, 1, 4 at 0.64, 0.32, 0.58 and called
    #: blank; moved 0.06 of a side up, 5-4-4 at 0.95 or more; at 60 % turned 225 degrees,
    #: only up and to the right, by 0.06 and by 0.12, at 0.9 or more). Above 1: never
    move_loose_below: float = 0.85
    move_loose_fracs: tuple[float, ...] = (0.06, 0.12)
    move_loose_min: float = 0.9
    #: ... for at most this many faces per photo (6 outlines a move length each)
    move_loose_max: int = 8
    #: a cell's corner beyond the photo's edge, completed as the parallelogram with the
    #: tile across the opposite edge, bends as the board's homography bends it there (the
    #: parallelogram alone is affine: a third of a side short near the camera on a table
    #: tilted 35 degrees or more; dev2 71000655, a tile cut by the photo's edge). Not in
    #: the photo: bent so everywhere, 5 hidden tiles fewer were found on dev (the
    #: homography of a hand-placed board bends its middle wrongly)
    local_perspective: bool = True
    #: a candidate cell showing a digit at least shift_seed_min at one corner and none at
    #: another is read again from its outline moved shift_fracs x side toward and away from
    #: each corner (a drifted arm), never covering over shift_overlap_max of its area of an
    #: outlined face; at most shift_max cells per photo (empty shift_fracs: never)
    shift_fracs: tuple[float, ...] = (0.12, 0.24)
    shift_seed_min: float = 0.75
    shift_overlap_max: float = 0.15
    shift_max: int = 24
    #: ... nor with a digit spot inside the outline of a proposed cell read as a tile (mean
    #: "none" at most none_threshold) or of an earlier ring's candidate that joined the
    #: board (mean "none" at most candidate_pass_none_max: a tile, or one mostly under a
    #: hand the rings go on past): its crops would read that tile's digits (dev2
    #: 71000923: a false partial tile). By digit spot,
    #: not by area: those outlines are the lattice's, a little off their tiles where the
    #: board drifts, and a move over the edge of one read the real tile beside it (onyx
    #: dev 73000108). Dev, dev2, dev3, dev with faults, onyx dev, checked cloth (2,080
    #: photos): dev3 76000174 a false tile fewer (now with no mistake), onyx dev 73000091
    #: a tile under a hand more, dev2 71000927 a mostly hidden one more, nothing else
    #: changed. False: off outlined faces only
    shift_off_tiles: bool = True
    #: ... also a cell cut by the photo's edge, judged on its corners in view, from a
    #: clearer digit than this (above 1: never): where the lattice is extrapolated
    #: furthest, near the camera in a steep view, and fewer corners show (dev A/B: +5
    #: tiles on 71000197, 220 and 233, nothing lost; 0.4 read the same)
    shift_partial_seed_min: float = 0.55
    #: ... and a move showing a digit of at least this at two corners and none at the
    #: third (a hand over that corner) is kept where no move shows all three and the
    #: outline showed fewer than two so (as is one of _shift_free's, below; above 1:
    #: never). Dev 71000000-999: +3 photos with no mistake (71000355, 397, 399), +3
    #: tiles (and 2 mostly hidden), +1 digit right, nothing lost; at 0.8 two false
    #: violations more (71000711: a move reading 4 at 0.83 and 3 at 0.9 off its
    #: neighbours; 71000013: a mostly hidden tile found, touching the board by a corner)
    shift_hidden_min: float = 0.85
    #: ... a loose face showing no digit also bars a free move over it (False: only one
    #: showing a digit does: a face a hand cuts short reads none where its digits are,
    #: dev 71000399)
    shift_blank_face: bool = False
    #: a cell whose outline no face of its own fixes, showing a digit at one corner and
    #: none at another (all three in view), is read from those moves too however weak
    #: that digit, kept where every corner then reads at least shift_free_min (> 1:
    #: never; only on a board that reads clearly where the lattice put it; see
    #: vision.pipeline._shift_free). Dev A/B: +7 tiles on 4 photos, 2 of them then read
    #: with no mistake, nothing lost; held-out: no change. Cost: one more classifier
    #: call, ~7 ms on the 12 MP sample (4 cells tried six ways, none moved)
    shift_free_min: float = 0.8
    #: ... moved by these fractions of a side only (each costs a classifier read of six
    #: outlines a cell; on the dev photos every such move kept was by 0.12)
    shift_free_fracs: tuple[float, ...] = (0.12,)
    #: ... and so is such a cell showing no digit at any corner, but none of them clearly
    #: (its "none" probability under this on average; 0: never): its crops fall beside
    #: its digits (onyx dev 73000114: an arm of black tiles where the lattice, fitted 5 %
    #: too large, lies 0.08 of a side off; "none" read at 0.33-0.58), moved by these
    #: fractions (the smaller one too: 0.12 overshoots that tile, and covers the cell
    #: beside it, read as a whole tile). A bare table's cells read "none" clearly:
    #: untried. Only for these cells: 0.06 added to shift_free_fracs cost dev2 71000925
    #: three digits.
    #: Dev A/B: that one tile more, every other row of the six dev sets the same. 0.7
    #: since stop 122 (0.6 before): a hand over one corner reads "none" there clearly,
    #: lifting the mean of a cell whose other two crops miss their digits (dev2
    #: 71000918: 0.40, 0.81 and 0.76, the hand's corner)
    shift_free_blank: float = 0.7
    shift_free_blank_fracs: tuple[float, ...] = (0.06, 0.12)
    #: ... kept too, where no move shows three digits, where one shows two at this or more
    #: and none at the third corner (a hand over it; above 1: never, as before stop 122):
    #: the lattice carried across a hand lies off the tiles beyond it (onyx dev 73000078:
    #: a 5-1-3's cell 0.28 of a side off it, reading "none" at 0.44-0.55; moved 0.12 of
    #: a side, 0.87 and 0.93 and none under the hand). As shift_hidden_min. Dev A/B
    #: (with shift_free_blank 0.7): a tile more on 73000078 and on dev2 71000918, every
    #: other row of the six dev sets the same
    shift_free_blank_hidden: float = 0.85
    #: a board tile in full view whose crop reads a digit at least conflict_own_min that the
    #: board's choice overrules (the digit chosen read under conflict_chosen_max: a
    #: second copy of a tile, or a mismatch with its neighbours) is read again from its
    #: outline moved conflict_shift_fracs x side toward and away from each corner: an arm
    #: of the board drifts off the lattice, and a crop half off its digit misreads it
    #: (dev 71000661: a 3 read as 5 at 0.85, the tile then 5-5-5, a second copy). A move
    #: reading every corner at least conflict_free_min, another digit at that corner, is
    #: kept where the board chosen again then overrules fewer corners, with no tile lost;
    #: only on a board read clearly (support_clarity). Above 1: never. Dev A/B: dev2 one
    #: photo more with no mistake (71000661), no other row of dev, dev2, dev with faults,
    #: held out or held out with faults changed
    conflict_own_min: float = 0.5
    conflict_chosen_max: float = 0.2
    conflict_shift_fracs: tuple[float, ...] = (0.06, 0.12)
    #: ... and from its outline with each such corner where the lattice's homography puts
    #: it (a face traced short at one corner: the tile's thick side at the board's edge;
    #: dev3 76000122, sharp 176 px tiles: the vertex 0.13 of a side short, its 3 read as 2
    #: at 0.53, the set's 4 chosen at 0.11; moved there, 3 at 0.78). With it, the bar for
    #: a digit read clearly by the crop went 0.6 -> 0.5 and the bar for every corner of a
    #: move kept, conflict_free_min, 0.8 -> 0.75 (the board read again decides: no tile
    #: lost, fewer corners overruled). Dev A/B (six dev sets, 2,080 photos): that photo
    #: read with no mistake, no other row moved
    conflict_predicted: bool = True
    conflict_free_min: float = 0.75
    #: ... and also where the lattice's homography puts the corner (a face outlined wrongly
    #: at one corner puts that vertex 0.2-0.6 of a side off; on 8 dev photos with such a
    #: digit error the homography's vertex lay within 0.07 of a side of the true corner)
    reread_predicted: bool = True
    #: a cell without a face of its own (proposed, or a candidate) whose lattice outline
    #: lies over h_outline_min x side from where the homography puts its free corners
    #: (those no two outlined faces fix) is read there too; that outline replaces the
    #: lattice's when all three of its corners then show digits and it reads clearer by
    #: h_outline_gain (log probability), and its vertices then place the cells beyond it
    #: (0 = never). Found on boards fitted to their silhouette, whose outline-corrected
    #: vertices can lie a quarter side off an arm (dev 71000045, 71000223: +7 tiles)
    h_outline_min: float = 0.1
    h_outline_gain: float = 1.0
    #: ... and the homography's whole outline too, corners fixed by faces moved as well
    h_outline_pure: bool = True
    #: ... an outline of the cell's shape (each side within this ratio of the side the
    #: homography gives it) covering no outlined face (shift_overlap_max)
    h_outline_shape: float = 1.25
    #: ... a corner counts as fixed when at least h_outline_anchor outlined faces meet at
    #: it: one face outlined wrongly at a corner (seams hidden between dark tiles) may put
    #: it a third of a side off (dev 71000393)
    h_outline_anchor: int = 2
    #: ... and a cell's own face too, where its crops show no digit at this many corners
    #: or more: a hand over a corner cuts the face's outline short, moving that vertex
    #: (dev 71000629: an apex 22 px off, and the tile read as a blank one; 1 as well
    #: changed six dev photos' digits for one tile gained; 4 = never)
    h_outline_face_none: int = 2
    #: loose tiles cut by the photo's edge are found from their corner in view
    #: (vision.detect.find_cut_faces) and read as partial where visible (False: never)
    cut_faces: bool = True
    #: ... and, where no corner in view shows as one vertex, from a rounded one: two
    #: sides of the region meeting through short edges of at most this fraction of a
    #: side in all, met where their lines meet (dev 71000033: two face-down tiles cut by
    #: the edge, each corner in view rounded into two vertices of ~120 degrees; 0: a
    #: corner must be one vertex)
    cut_round_corner: float = 0.3
    #: ... and, where the board's homography is known and a region shows no such corner
    #: on screen (or none whose tile it fills), judged on the table plane at the lattice's
    #: cell size where it lies: a steep view bends a 60-degree corner on screen and
    #: scales tiles off the board's size (dev 71000034, 71000208; False: on screen only)
    cut_on_table: bool = True
    #: ... and a corner whose one side runs to the photo's frame may show that side this
    #: short (x side; else a quarter of a side, as any side), where its other side is at
    #: least ``cut_short_long`` x side: a tile cut near its far side shows a strip, a long
    #: side and two short ones, each up to the frame (dev 71000026, 71000061, 71000177:
    #: loose tiles at the photo's head, 40 px of them in view; 0: never)
    cut_short_side: float = 0.08
    cut_short_long: float = 0.5
    #: ... and such a strip showing no digit reported as a face-down tile partly in view
    #: (False: only one showing a digit is a tile; a blank strip may be a score pad's
    #: ruled lines, dev 71000397)
    cut_strip_blank: bool = False
    #: ... and, besides the regions between the edges thickened by 1 px, those between
    #: edges thickened by this many px, a tile found there kept where none found in the
    #: first covers its centre (a bevelled tile's two outlines, its top face's and its
    #: side wall's, leave a channel to the table through a gap in the inner one: dev
    #: 71000230; 0 or 1: never)
    cut_thick_edges: int = 3
    #: ... one lying on a board cell read as partial, or on a cell sharing a side with
    #: the board (a board tile mostly beyond the edge, read too little to join it), is
    #: never reported off the board (dev 71000033: two faces at the photo's foot on
    #: partial board tiles; False: kept off the board)
    cut_beside_board: bool = True
    #: a corner of a tile cut by the photo's edge, itself beyond the edge, is still read
    #: where its digit's spot is in view and read with at least this probability (above
    #: 1: never)
    partial_read_min: float = 0.9
    #: ... and a corner in view whose digit's crop lies wholly beyond the edge (its spot
    #: more than a crop's half-width, 0.15 of a side, past it) is not read: that crop is
    #: the photo's border repeated, no digit's pixels (dev faults 71000209: a "1" at 0.67
    #: on a cell of table at the photo's foot); False = read as any corner in view
    partial_crop_beyond: bool = True
    #: a candidate cut by the photo's edge joins the board only where one of its digits in
    #: view reads at least this (a cut cell of table beside the board reads digits no
    #: better than guesses; 0 = off)
    partial_clear_min: float = 0.5
    #: ... and where one corner alone is in view and its digit is not the one the board
    #: shows at that vertex, it reads at least this (table texture by the board's vertex
    #: reads a digit a few times in a thousand cells; a tile's digit there is the
    #: board's); 0 = off
    partial_one_min: float = 0.9
    #: a face outlined on the board's lattice, cut by the photo's edge, meets the
    #: partial_clear_min bar too (the table between tiles at the edge, outlined by them,
    #: read no digit and took its digits from the board: dev 71000904); False = off
    partial_face_clear: bool = True
    #: ... and its corners in view whose pixels say no digit (at least partial_read_min)
    #: tell none, and one showing a digit alone is judged as a candidate cell is, by
    #: partial_one_min (table print by the board read 5 at 0.85 where the board shows 2,
    #: its other corner in view "no digit" at 0.98 taken as the board's 1: dev faults
    #: 71000266); False = off
    partial_face_lone: bool = True
    #: a corner counts as visible when it lies this far inside the image (x side)
    visible_margin_frac: float = 0.05
    #: a digit whose top probability is below this is flagged ``low confidence``
    low_confidence: float = 0.80
    #: a tile is present if its corners are not "none" with at least this mean probability
    none_threshold: float = 0.5
    #: ... and if at most this many of its corners sit where no corner shows a digit (its
    #: own pixels say "none" and no board neighbour at that vertex reads one): two digits
    #: read where nothing shows them would be guesses (a lone phantom tile on a table)
    unshown_corners_max: int = 1
    #: ... and, on a board read clearly (mean top probability over its corners at least
    #: support_clarity), if its own pixels back its final digits: their probabilities sum
    #: to at least support_min (of 3). An empty cell among the board's tiles, outlined by
    #: them, would take every digit from its neighbours (dev: sums 0.03-0.68, on boards of
    #: 0.90-0.96); a tile with a corner under a finger still shows the others (0.86). On a
    #: blurred board (dev: 0.62-0.81) the neighbours rightly tell what the pixels barely
    #: show. (support_min 0 = no such test)
    support_min: float = 0.75
    support_clarity: float = 0.88
    #: ... and (on any board) a tile whose pixels show no digit at two corners, whose
    #: digits from its neighbours make no tile of the set, is dropped the same way (dev
    #: 71000190: the table between tiles, outlined by them, read as a mirror tile; dev
    #: A/B: nothing else changed)
    drop_no_set_tile: bool = True
    #: ... and so is (on any board) a tile whose own pixels show no digit at any corner:
    #: its every digit a guess from its neighbours (dev 71000576: the table beside a
    #: board outlined as a face; in 1000 dev photos' readings no real tile so read)
    drop_no_digit_tile: bool = True
    #: ... and so is (on any board) a tile whose own pixels barely back its final digits
    #: (under support_min) when those make no tile of the set or one the board already
    #: has: a misreading the board can not put right, most often no tile at all
    drop_unsupported_misfit: bool = True
    #: ... and on a board read clearly (support_clarity), under this: the print of a
    #: cloth between tiles reads digits weakly (dev 71000719, 916: 1.08, 0.95 on oilcloth
    #: printed with triangles, read as mirror tiles). On blurred boards at 1.1, 4 misread
    #: real tiles (0.75-1.1) were dropped as well; there the neighbours tell the digits
    misfit_support_min: float = 1.1
    #: ... but not a tile whose own pixels read a tile of the set clearly, every corner's
    #: first choice a digit at this or more, where the board's digits overrule two of its
    #: corners or more: it was placed against the rule, and stays as its pixels show it,
    #: the mismatch reported (faults 70000026; 0 = off: dropped)
    as_read_min: float = 0.7
    #: ... and so is a tile whose final digits make no tile of the set, two of them given
    #: under this by its own pixels: chosen to agree with the board, guesses (dev
    #: 71000969: 0-4-1, two digits at 0.01; dev3 76000015: a second 1-1-3 read where a
    #: hand lies over a checked cloth, its 3 at 0.01 and one 1 at 0.06, the pixels there
    #: saying no digit and 4. Of the 84 set misfits read on dev, dev2 and dev3 the next,
    #: a real tile misread, gives 0.08: dropped, it would be missed instead; 0 = off)
    misfit_guess_max: float = 0.07
    #: a tile left on the board that repeats one of it, or is not in the set, where a
    #: digit of it was chosen against its pixels (not its crop's first choice) is flagged
    #: misread (vision.reading.MISREAD_SET), and that is not reported as a violation: one
    #: set holds each tile once and no mirror tile, so the reading is wrong there, not the
    #: table (dev 71000427, 616, 868: 10 such false violations, a digit at 0.03-0.24)
    misread_set: bool = True
    #: ... unless each corner so chosen reads its own digit at this or more and those
    #: digits make a tile of the set not on the board elsewhere: then read as its pixels
    #: show (a faulted corner "repaired" into a second copy or a mirror tile: dev faults
    #: 71000148, 179, 188, 274, 324, 367 at 0.60-0.91; the misread dev tiles' own digits
    #: repeat a tile or make none of the set, or read under 0.46); above 1 = never
    misread_own_min: float = 0.5
    #: ... and a tile read clearly that repeats another or is not in the set is flagged
    #: misread too, not reported as a violation: no table holds it (False: reported)
    misread_set_clear: bool = True
    #: ... but first, a tile read clearly that repeats another or is not in the set, at a
    #: corner where the tiles meeting it (not so named) all show another digit that makes
    #: it a tile of the set the board holds nowhere else, is read with that digit there
    #: (vision.pipeline._told_by_vertex; dev 71000246: a blurred 3 read as 1 at 0.86-0.95
    #: on two tiles beside three 3s). A tile placed against the rule is a tile of the set
    misread_set_vertex: bool = True

    # --- reconstruct ------------------------------------------------------------------
    #: a corner reading is "confident" above this probability; a confident disagreement at a
    #: vertex is left as a violation, never repaired
    confident: float = 0.90
    #: ... and so is one corner read confidently against all the others at its vertex
    #: reading another digit at mismatch_other or more and giving its digit under
    #: mismatch_denied: their pixels deny its digit, its own deny theirs (dev faults
    #: 71000055: 5 at 0.97 against two 3s at 0.85 giving 5 0.03, repaired to 3 before;
    #: on dev faults 4 more photos read with no mistake, dev unchanged; the lone corner
    #: at 0.8 instead of confident: 2 more there, but 2 fewer on dev and 6 false
    #: violations more). 0 = off: the vertex's digits chosen by their joint probability
    mismatch_denied: float = 0.05
    mismatch_other: float = 0.5
    #: ... and so is one corner read at mismatch_joint_min or more, no other corner there
    #: reading its digit, whose digit and the others' joint choice (their log-
    #: probabilities summed; one of them reading it at mismatch_other or more) each lose
    #: to the other by this much (log-probability; 0 = off): the others are then read
    #: together, that corner alone (dev faults 71000176, a 0 at 0.99 against a 2 at 0.88
    #: and a blurred 2 or 3, was repaired to 2; dev faults: 1 more photo with no mistake
    #: and 2 more faults reported, dev and dev2 every row the same. A first form, at
    #: confident (0.9) and with neither the witness nor the no-other test: 2 more on dev
    #: faults, but 1 fewer on dev2, where the classifier read a 5 as 3 at 0.91 against two
    #: 5s, 71000977, and 9 false violations more on dev and dev2)
    mismatch_joint: float = 3.0
    mismatch_joint_min: float = 0.97
    #: a corner's "none" probability is spread evenly over the six digits when the board's
    #: digits are chosen (a crop that sees no digit, under a hand or off its spot, is no
    #: evidence for any); False: the six digits' probabilities renormalised (the none
    #: class dropped, so a crop's noise becomes a confident reading)
    none_is_no_evidence: bool = True
    #: log-probability penalty for choosing a duplicate or a tile outside the set
    set_penalty: float = 4.0
    #: on a blurred board (under support_clarity) every tile's digits are chosen from it
    #: read five times: as outlined and moved this fraction of a side left, right, up and
    #: down (0 = once) ...
    steady_shift: float = 0.03
    #: ... and on a board read clearly, only its tiles with a digit read under this (a
    #: corner half hidden, or falling on a digit's edge; the 12 MP sample has none)
    steady_below: float = 0.90

    # --- off the board (see vision.loose) ----------------------------------------------
    #: a loose tile's mean side on the table plane, in lattice units (blank backs)
    loose_side_range: tuple[float, float] = (0.55, 1.35)
    #: ... at most this for a tile that shows digits (a rack tile may stand up)
    loose_digit_side_max: float = 1.6
    #: an off-board shape whose three digits read with a mean probability under this is no
    #: evidence of a face-up tile (granite specks, printed patterns read as digits): it is
    #: judged as a blank shape instead (0: never)
    loose_read_min: float = 0.6
    #: ... but for a shape reading two digits clearly (adopt_loose_min) and none at its
    #: third corner: a tile with a hand over that corner, whose hidden digit reads low
    #: (dev 71000092: 0.81, 0.77 and a mean of 0.59 with the hidden one); False = judged
    #: on the mean too
    hidden_face_not_blank: bool = True
    #: longest / shortest side on the table plane of a blank back
    loose_max_side_ratio: float = 1.3
    #: a blank shape whose corners lie this close (lattice units) to an empty cell's next
    #: to the board is that cell (table showing through), not a tile
    loose_cell_tol: float = 0.15
    #: a blank back's colour against the board tiles' faces (CIE Lab): lightness (0-100;
    #: changes with the light across a table) and chroma (changes little) differences
    loose_lightness_tol: float = 43.0
    loose_chroma_tol: float = 15.0
    #: ... and its luminance within this factor of theirs, either way (0 = off): shade
    #: scales luminance (backs in shade 7x darker than the faces: dev 71000114, 71000315);
    #: the L* bar alone let printed black triangles (L* 14-19) pass as backs of grey
    #: tiles (L* 57, 9-15x brighter; dev 71000280 on an Intel host), and pale cloth
    #: shapes (L* 51-57, 10-12x) as backs of dark tiles (L* 16; dev 71000285)
    loose_light_ratio: float = 8.0
    #: a blank back's outline must show at least this median grey-level step across it
    #: (see vision.loose.boundary_contrast); shapes traced in table noise show ~2-10
    loose_min_contrast: float = 14.0
    #: ... or this step measured this far (x the board's side) outside its outline: an
    #: outline traced round a tile's top face has the bevel, nearly the face's colour,
    #: just outside it (dev 71000007: a white back on a tan table, 4.7 at 0.08 side out,
    #: 86 at 0.2); twice the step above, as table noise there reaches ~15-22 (0 = off)
    loose_far_reach: float = 0.2
    loose_far_contrast: float = 28.0
    #: two off-board shapes closer than this (x board side) are one tile (top face and
    #: silhouette): the one with digits, else the smaller, is kept
    loose_dedupe_frac: float = 0.5
    #: a blank shape is printed on the table, not a face-down tile, where at least
    #: loose_printed_copies other blank shapes taken for tiles (a tile's size, the tiles'
    #: colour, outlined), each farther than loose_printed_apart sides from it, have its
    #: size (within loose_printed_size, ratio) and lie turned as it does (within
    #: loose_printed_turn_deg, on the table plane): a cloth printed with triangles repeats
    #: one motif turned one way, where face-down tiles lie turned every way (dev 71000122:
    #: 33 printed white triangles reported as face-down tiles; 0 = off). A shape with one
    #: alike nearer than loose_printed_apart sides (but farther than loose_dedupe_frac:
    #: not one tile outlined twice) stands in a row, as tiles in a rack do: it is neither
    #: judged printed nor counted as a copy (dev2 71000818)
    loose_printed_copies: int = 3
    loose_printed_apart: float = 1.5
    loose_printed_size: float = 1.15
    loose_printed_turn_deg: float = 4.0
    #: off-board tiles are judged on a colour copy shrunk (a JPEG: decoded at 1/2, 1/4 or
    #: 1/8 directly, a third of a full colour decode) as far as keeps the board's tiles
    #: this many px a side: colour is a median of ~24 samples across a tile and the
    #: outline contrast is read 0.08 of a side either side of it (3 px at 40)
    loose_colour_min_side: float = 40.0
    #: loose tiles whose edges show no outline (a cream tile across a white check, a dark
    #: one on dark granite) are looked for as regions of the board tiles' face colour
    #: (vision.loose.colour_faces) and kept where the classifier reads three digits there;
    #: False: only the faces found by their edges
    colour_loose: bool = True
    #: ... a pixel is of the face colour within this many robust deviations of the board
    #: tiles' face pixels in each of Y, Cr, Cb ...
    colour_loose_spread: float = 3.0
    #: ... and no closer than these (grey levels; a board of very even tiles)
    colour_loose_floor: tuple[float, float, float] = (8.0, 4.0, 4.0)
    #: ... and looked for again with lightness this far from theirs (grey levels; a tile
    #: in a shadow or under the lamp keeps its chroma; at the first tolerance: once)
    colour_loose_light_far: float = 45.0
    #: ... regions opened by a disc of this x board side (table specks, thin joins) ...
    colour_loose_open: float = 0.12
    #: ... looked for this far (x board side) from the tiles already read ...
    colour_loose_away: float = 0.15
    #: ... of this area against a face's there (on the table plane; a region of the flat
    #: face alone is smaller than the tile) ...
    colour_loose_area: tuple[float, float] = (0.3, 1.5)
    #: ... filling its enclosing triangle this much and that triangle's sides within
    #: this ratio ...
    colour_loose_fill: float = 0.75
    colour_loose_side_ratio: float = 1.6
    #: ... and each corner read as a digit at this probability at least
    colour_loose_min: float = 0.6

    #: a photo where no tile is found is said to be blurred (the hint of its error)
    #: where its sharpest edges rise less steeply than this (vision.detect.edge_sharpness
    #: at the detection copy's size; benchmarks.blur_hint: of 300 dev photos, 1 of the
    #: 197 sharp ones measured under 0.18, 26 of the 31 blurred by 2 px or more) ...
    blur_hint_sharpness: float = 0.18
    #: ... judged only with this many edge pixels at least (fewer: hardly any detail, a
    #: plain surface or a photo blurred past its edges; dev photos showed 312 or more)
    blur_hint_edges: int = 100

    #: a sharp photo (no hint of pipeline.why_empty) where no board is read is searched
    #: again on detection copies this many times the size (0 or 1: never): onyx dev
    #: 73000034, 73000184 (dark tiles, 90 and 130 px a side, sharp) read no board at
    #: their own size, and their boards at three quarters of it ...
    rescale_empty: float = 0.75
    #: ... taken where the median probability of the digits it reads on the board is at
    #: least this (a board read clearly, not guesses: dev3 76000049, glare over small
    #: tiles, read 2 false tiles at 0.61; dev2 71000992, blurred, 16 with 7 wrong at 0.52;
    #: dev 71000333, its 3 tiles right, 0.86) ...
    rescale_clear: float = 0.8
    #: ... and of at least this many board tiles (one tile alone is no board to take on
    #: a second search: dev3 76000049 read one false tile, a digit of it chosen against
    #: its pixels, at 0.89)
    rescale_min_tiles: int = 2

DEFAULT = ReaderConfig()
