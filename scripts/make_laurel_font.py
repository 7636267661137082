#!/usr/bin/env python3
"""Build fonts/HeeLaurel.ttf: two laurel-branch glyphs drawn entirely here.

    U+E000  laurel.leading   branch bent like "(" (stands left of a number)
    U+E001  laurel.trailing  exact mirror image (stands right of a number)

Every outline is computed below from a few numbers (a circular stem and
lens-shaped leaves); nothing is taken from another font.  Curves are
designed as cubics and converted to TrueType quadratics with fontTools'
cu2qu.  Leaves overlap the stem; all contours run clockwise so the
non-zero fill rule (FreeType, CoreText, DirectWrite) shows no holes, and
each glyph carries the OVERLAP_SIMPLE flag.

The output is byte-for-byte deterministic: fixed head timestamps and no
other time- or environment-dependent data.

Usage: make_laurel_font.py [OUTPUT_DIR]   (default: <repo>/fonts)
"""

import math
import os
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.misc.timeTools import timestampFromString
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._g_l_y_f import flagOverlapSimple

FAMILY = "HeeLaurel"
STYLE = "Regular"
VERSION = "1.000"
COPYRIGHT = "Copyright 2026 The HeeKeyboard authors"
LICENSE = ("This Font Software is licensed under the SIL Open Font License, "
           "Version 1.1. See HeeLaurel-LICENSE.txt.")
LICENSE_URL = "https://openfontlicense.org"
FIXED_TIME = timestampFromString("Thu Jan  1 00:00:00 2026")

UPM = 1000
ASCENT, DESCENT = 800, -200
ADVANCE = 550

# --- geometry of the leading branch (font units, y up) -------------------
# The stem is an arc of a circle whose centre lies to the right, so the
# arc bulges to the left like "(".
CX, CY, R = 620.0, 362.0, 400.0
THETA_BOTTOM = math.radians(236.0)   # lower end of the stem
THETA_TOP = math.radians(133.0)      # upper end (hidden under the top leaf)
STEM_W_BOTTOM, STEM_W_TOP = 38.0, 16.0

# Side leaves along the outer side: (position along stem 0..1, length,
# lean in degrees from the outward normal toward the tip of the branch).
SIDE_LEAVES = [
    (0.10, 205.0, 58.0),
    (0.255, 195.0, 55.0),
    (0.405, 180.0, 52.0),
    (0.55, 162.0, 50.0),
    (0.69, 142.0, 48.0),
    (0.82, 120.0, 46.0),
]
TOP_LEAF_LEN = 135.0       # leaf continuing the stem at its upper end
TOP_LEAF_LEAN = 14.0       # degrees the top leaf turns outward
LEAF_WIDTH_RATIO = 0.37    # widest part of a leaf / its length
LEAF_BEND = 0.06           # curvature of the midrib (fraction of length)


def v_add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def v_scale(a, s):
    return (a[0] * s, a[1] * s)


def v_norm(a):
    n = math.hypot(a[0], a[1])
    return (a[0] / n, a[1] / n)


def stem_frame(t):
    """Point on the stem centreline at t (0 bottom .. 1 top), the outward
    normal, the unit tangent pointing toward the top, and the stem width."""
    th = THETA_BOTTOM + (THETA_TOP - THETA_BOTTOM) * t
    p = (CX + R * math.cos(th), CY + R * math.sin(th))
    normal = (math.cos(th), math.sin(th))          # away from the centre
    tangent = (math.sin(th), -math.cos(th))        # d/dt direction (theta decreasing)
    w = STEM_W_BOTTOM + (STEM_W_TOP - STEM_W_BOTTOM) * t
    return p, normal, tangent, w


def stem_contour():
    """Closed outline of the tapered stem as a list of cubic segments.

    Returns (start_point, [(c1, c2, end), ...]) with straight lines encoded
    as degenerate cubics (c1 == start, c2 == end)."""
    steps = 12
    segs_outer, segs_inner = [], []
    # Each arc piece: approximate a circle arc of angle d with a cubic whose
    # handles have length k * r, k = 4/3 * tan(d/4).  The radius varies
    # slightly because of the taper; handle lengths use the local radius.
    pts_o, pts_i = [], []
    for i in range(steps + 1):
        t = i / steps
        p, n, tg, w = stem_frame(t)
        pts_o.append((v_add(p, v_scale(n, w / 2)), tg, R + w / 2))
        pts_i.append((v_add(p, v_scale(n, -w / 2)), tg, R - w / 2))
    d = abs(THETA_TOP - THETA_BOTTOM) / steps
    k = 4.0 / 3.0 * math.tan(d / 4)
    for (a, ta, ra), (b, tb, rb) in zip(pts_o, pts_o[1:]):
        segs_outer.append((v_add(a, v_scale(ta, k * ra)),
                           v_add(b, v_scale(tb, -k * rb)), b))
    for (a, ta, ra), (b, tb, rb) in zip(pts_i, pts_i[1:]):
        segs_inner.append((v_add(a, v_scale(ta, k * ra)),
                           v_add(b, v_scale(tb, -k * rb)), b))
    # Walk: bottom-outer -> up the outer edge -> across the top ->
    # down the inner edge -> straight back across the bottom end.
    start = pts_o[0][0]
    segs = list(segs_outer)
    top_o, top_i = pts_o[-1][0], pts_i[-1][0]
    segs.append((top_o, top_i, top_i))
    for idx in range(len(segs_inner) - 1, -1, -1):
        c1, c2, _ = segs_inner[idx]
        segs.append((c2, c1, pts_i[idx][0]))
    segs.append((pts_i[0][0], start, start))
    return start, segs


def leaf_contour(base, axis, length):
    """Pointed lens from base to tip with a slightly bent midrib."""
    axis = v_norm(axis)
    perp = (-axis[1], axis[0])
    tip = v_add(base, v_scale(axis, length))
    half_w = length * LEAF_WIDTH_RATIO / 2
    h = half_w / 0.75            # cubic reaches 3/4 of its handle offset
    bend = length * LEAF_BEND

    def side(sign, widen):
        c1 = v_add(base, v_add(v_scale(axis, 0.22 * length),
                               v_scale(perp, sign * h * widen + bend)))
        c2 = v_add(base, v_add(v_scale(axis, 0.62 * length),
                               v_scale(perp, sign * h * widen + bend)))
        return c1, c2

    a1, a2 = side(+1, 1.0)
    b1, b2 = side(-1, 0.92)
    return base, [(a1, a2, tip), (b2, b1, base)]


def leading_contours():
    contours = [stem_contour()]
    for t, length, lean in SIDE_LEAVES:
        p, n, tg, w = stem_frame(t)
        a = math.radians(lean)
        axis = v_add(v_scale(n, math.cos(a)), v_scale(tg, math.sin(a)))
        base = v_add(p, v_scale(n, -w * 0.1))
        contours.append(leaf_contour(base, axis, length))
    # Top leaf continues the stem, leaning a little outward.
    p, n, tg, w = stem_frame(1.0)
    axis = v_add(v_scale(tg, math.cos(math.radians(TOP_LEAF_LEAN))),
                 v_scale(n, math.sin(math.radians(TOP_LEAF_LEAN))))
    base = v_add(p, v_scale(axis, -0.12 * TOP_LEAF_LEN))
    contours.append(leaf_contour(base, axis, TOP_LEAF_LEN))
    return contours


def signed_area(points):
    a = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        a += x0 * y1 - x1 * y0
    return a / 2


def flatten(start, segs, n=8):
    pts = [start]
    p0 = start
    for c1, c2, p3 in segs:
        for i in range(1, n + 1):
            t = i / n
            mt = 1 - t
            pts.append((mt ** 3 * p0[0] + 3 * mt * mt * t * c1[0] + 3 * mt * t * t * c2[0] + t ** 3 * p3[0],
                        mt ** 3 * p0[1] + 3 * mt * mt * t * c1[1] + 3 * mt * t * t * c2[1] + t ** 3 * p3[1]))
        p0 = p3
    return pts[:-1]


def mirror(contours):
    def m(p):
        return (ADVANCE - p[0], p[1])
    out = []
    for start, segs in contours:
        out.append((m(start), [(m(c1), m(c2), m(e)) for c1, c2, e in segs]))
    return out


def reverse(start, segs):
    """Same outline traversed the other way."""
    nodes = [start] + [e for _, _, e in segs]     # nodes[-1] == start
    rev = []
    for i in range(len(segs) - 1, -1, -1):
        c1, c2, _ = segs[i]
        rev.append((c2, c1, nodes[i]))
    return nodes[-1], rev


def build_glyph(contours):
    tt_pen = TTGlyphPen(None)
    pen = Cu2QuPen(tt_pen, max_err=0.8, all_quadratic=True)
    for start, segs in contours:
        # TrueType outer contours are clockwise (negative signed area in a
        # y-up system); normalise every contour to that direction.
        if signed_area(flatten(start, segs)) > 0:
            start, segs = reverse(start, segs)
        pen.moveTo(start)
        for c1, c2, end in segs:
            pen.curveTo(c1, c2, end)
        pen.closePath()
    glyph = tt_pen.glyph()
    if glyph.numberOfContours > 0:
        glyph.flags[0] |= flagOverlapSimple
    return glyph


def empty_glyph():
    return TTGlyphPen(None).glyph()


def notdef_glyph():
    pen = TTGlyphPen(None)
    # Outer box clockwise, inner box counter-clockwise (a hollow rectangle).
    pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((450, 700))
    pen.lineTo((450, 0)); pen.closePath()
    pen.moveTo((100, 50)); pen.lineTo((400, 50)); pen.lineTo((400, 650))
    pen.lineTo((100, 650)); pen.closePath()
    return pen.glyph()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "fonts")
    os.makedirs(out_dir, exist_ok=True)
    out_path = os.path.join(out_dir, "HeeLaurel.ttf")

    lead = leading_contours()
    trail = mirror(lead)

    order = [".notdef", "space", "laurel.leading", "laurel.trailing"]
    glyphs = {
        ".notdef": notdef_glyph(),
        "space": empty_glyph(),
        "laurel.leading": build_glyph(lead),
        "laurel.trailing": build_glyph(trail),
    }

    fb = FontBuilder(UPM, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x0020: "space", 0xE000: "laurel.leading",
                          0xE001: "laurel.trailing"})
    fb.setupGlyf(glyphs)
    glyf = fb.font["glyf"]
    metrics = {}
    for name in order:
        g = glyf[name]
        g.recalcBounds(glyf)
        adv = 500 if name == ".notdef" else (250 if name == "space" else ADVANCE)
        metrics[name] = (adv, getattr(g, "xMin", 0))
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=ASCENT, descent=DESCENT, lineGap=0)
    fb.setupNameTable({
        "copyright": COPYRIGHT,
        "familyName": FAMILY,
        "styleName": STYLE,
        "uniqueFontIdentifier": f"{VERSION};HeeKeyboard;{FAMILY}-{STYLE}",
        "fullName": f"{FAMILY} {STYLE}",
        "version": f"Version {VERSION}",
        "psName": f"{FAMILY}-{STYLE}",
        "description": "Laurel branch glyphs for HeeKeyboard (U+E000 leading, U+E001 trailing).",
        "licenseDescription": LICENSE,
        "licenseInfoURL": LICENSE_URL,
    }, mac=False)
    fb.setupOS2(
        sTypoAscender=ASCENT, sTypoDescender=DESCENT, sTypoLineGap=0,
        usWinAscent=ASCENT, usWinDescent=-DESCENT,
        version=4, achVendID="NONE", usWeightClass=400, fsType=0,
        fsSelection=0x40 | 0x80,       # REGULAR | USE_TYPO_METRICS
        sxHeight=500, sCapHeight=700,
    )
    fb.setupPost(keepGlyphNames=True)
    fb.updateHead(created=FIXED_TIME, modified=FIXED_TIME,
                  fontRevision=float(VERSION))
    fb.font.recalcTimestamp = False
    fb.save(out_path)

    lg = glyf["laurel.leading"]
    print(f"wrote {os.path.normpath(out_path)} ({os.path.getsize(out_path)} bytes); "
          f"laurel.leading bbox x {lg.xMin}..{lg.xMax} y {lg.yMin}..{lg.yMax}, "
          f"{lg.numberOfContours} contours")


if __name__ == "__main__":
    main()
