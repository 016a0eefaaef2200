"""``mjarena hand``: one typed hand analysed (win, distance, waits or discards, every winning arrangement)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mjarena.cli.shared import EXIT_USAGE, UsageError


def _parse_melds(text: str) -> list[list[int]]:
    """``--melds``: a number of sets laid down (their tiles unknown), or the sets themselves, comma-separated, in
    mpsz (``123m,555z,1111p``): each a run, a triplet or a kong.

    >>> _parse_melds("2"), _parse_melds("123m, 7777p")
    ([[], []], [[0, 1, 2], [15, 15, 15, 15]])
    >>> _parse_melds("124m")
    Traceback (most recent call last):
    ...
    ValueError: --melds: 124m is not a run, a triplet or a kong
    """
    from mjarena.tiles import parse_mpsz

    text = text.strip()
    if text.isdigit():
        if int(text) > 4:
            raise ValueError(f"--melds {text}: a hand has at most 4 sets laid down")
        return [[] for _ in range(int(text))]
    melds = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kinds = sorted(parse_mpsz(part))
        run = len(kinds) == 3 and kinds[0] < 27 and kinds[0] % 9 <= 6 and kinds == list(range(kinds[0], kinds[0] + 3))
        if not (run or (len(kinds) in (3, 4) and len(set(kinds)) == 1)):
            raise ValueError(f"--melds: {part} is not a run, a triplet or a kong")
        melds.append(kinds)
    if len(melds) > 4:
        raise ValueError(f"--melds: {len(melds)} sets; a hand has at most 4 laid down")
    return melds


def _hand_report(text: str, rules_name: str, meld_sets: list[list[int]], wild: int) -> dict[str, Any]:
    """The analysis of one typed hand as a JSON-ready dict; raises ValueError (TileError) on bad input.

    Melds given by their tiles count as seen (the ``unseen`` of waits and useful tiles) and toward four of a kind.
    """
    from mjarena.hand.options import get_rules
    from mjarena.hand.wild import Wait, analyse, format_arrangement, format_group
    from mjarena.tiles import NUM_KINDS, WILD, check_counts, counts_of, format_tile, format_tiles, parse_tiles

    rules = get_rules(rules_name)
    tokens = text.split()
    if any(token.upper() not in ("BAIDA", "百搭") and token[-1:] in "mpsz*" for token in tokens):
        text = " ".join("*" if token.upper() in ("BAIDA", "百搭") else token for token in tokens)  # mpsz + BAIDA
    kinds = parse_tiles(text)
    if not kinds:
        raise ValueError("no tiles given")
    wild_kind = WILD if rules.wild_kind is None else rules.wild_kind
    kinds += [wild_kind] * wild
    melded = [kind for meld in meld_sets for kind in meld]
    check_counts([k for k in kinds + melded if k != WILD])
    counts = counts_of(kinds)
    melds = len(meld_sets)
    result = analyse(counts, melds, rules, visible=counts_of(melded) + [0] * (NUM_KINDS - 34))

    def tile(kind: int) -> str:
        return format_tile(kind, "mpsz") if kind < 34 or kind == WILD else format_tile(kind)

    def wait(w: Wait) -> dict[str, Any]:
        return {"tile": tile(w.kind), "kind": w.kind, "unseen": w.unseen}

    return {
        "hand": " ".join(tile(k) for k in sorted(kinds)) if any(k in (34, 35, 36) for k in kinds)
        else format_tiles(sorted(kinds), "mpsz"),
        "rules": rules_name,
        "tiles": result.tiles,
        "melds": melds,
        "meld_tiles": [format_tiles(meld, "mpsz") for meld in meld_sets if meld],
        "wilds": result.wilds,
        "can_win": result.can_win,
        "distance": result.distance,
        "waits": [wait(w) for w in result.waits],
        "discards": [
            {"tile": tile(d.kind), "kind": d.kind, "distance": d.distance, "useful": [wait(w) for w in d.useful]}
            for d in result.discards
        ],
        "arrangements": [
            {
                "form": a.form,
                "text": format_arrangement(a),
                "groups": [{"type": g.type, "tiles": format_group(g), "kinds": list(g.kinds), "wild": list(g.wild)}
                           for g in a.groups],
            }
            for a in result.arrangements
        ],
    }


def _hand_text(report: dict[str, Any]) -> str:
    def waits(items: list[dict[str, Any]]) -> str:
        return ", ".join(f"{w['tile']} ({w['unseen']} left)" for w in items) or "none"

    wilds = report["wilds"]
    lines = [
        f"hand: {report['hand']}  ({report['tiles']} tiles, {wilds} wildcard{'s' if wilds != 1 else ''}, "
        f"{report['melds']} meld(s){': ' + ' '.join(report['meld_tiles']) if report['meld_tiles'] else ''}; "
        f"rules {report['rules']})",
        f"can win: {'yes' if report['can_win'] else 'no'}",
        f"distance: {report['distance']}",
    ]
    arrangements = report["arrangements"]
    if arrangements:
        lines.append(f"arrangements ({len(arrangements)}):")
        lines += [f"  {'seven pairs: ' if a['form'] == 'seven_pairs' else ''}{a['text']}" for a in arrangements]
    if report["tiles"] == 13 - 3 * report["melds"]:
        lines.append(f"waits: {waits(report['waits'])}")
    else:
        lines.append("discards (best first):")
        lines += [f"  {d['tile']:<4} -> distance {d['distance']}; useful: {waits(d['useful'])}"
                  for d in report["discards"]]
    return "\n".join(lines)


def _cmd_hand(args: argparse.Namespace) -> int:
    import json

    from mjarena.hand.options import get_rules

    try:
        get_rules(args.rules)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.wild < 0:
        raise UsageError("--wild must be 0 or more")
    try:
        meld_sets = _parse_melds(args.melds)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.tiles != "-":
        try:
            report = _hand_report(args.tiles, args.rules, meld_sets, args.wild)
        except ValueError as error:
            raise UsageError(str(error)) from None
        print(json.dumps(report, ensure_ascii=False) if args.json else _hand_text(report))
        return 0
    failures = 0
    for number, line in enumerate(sys.stdin, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            report = _hand_report(text, args.rules, meld_sets, args.wild)
        except ValueError as error:
            failures += 1
            if args.json:
                print(json.dumps({"line": number, "input": text, "error": str(error)}, ensure_ascii=False))
            else:
                print(f"mjarena hand: line {number}: {error}", file=sys.stderr)
            continue
        print(json.dumps(report, ensure_ascii=False) if args.json else _hand_text(report) + "\n", flush=args.json)
    return EXIT_USAGE if failures else 0


def add_parsers(sub: Any) -> None:
    """Add ``hand`` to the ``mjarena`` subparsers ``sub``."""
    hand = sub.add_parser(
        "hand",
        help="analyse a hand: win, distance, waits or discards, every winning arrangement",
        description="Analyse one hand typed in mpsz (123m456p*), THUPC or NOI names (BAIDA is a wildcard). "
        "'-' reads one hand per line from stdin.",
        epilog="examples:\n  mjarena hand 123m456p789s1122z*\n  mjarena hand 1112345678999m --rules noi2014\n"
        "  mjarena hand 12345m --melds 123p,555z --json",
    )
    hand.add_argument("tiles", metavar="TILES", help="the concealed hand, or '-' for one hand per line on stdin")
    hand.add_argument("--rules", default="baida", help="thupc2021, noi2014 or baida (default baida)")
    hand.add_argument("--melds", default="0", metavar="N|SETS",
                      help="sets laid down: a number, or the sets in mpsz, comma-separated: 123m,555z (0)")
    hand.add_argument("--wild", type=int, default=0, metavar="N", help="add N wildcards to the hand")
    hand.add_argument("--json", action="store_true", help="one JSON object per hand")
    hand.set_defaults(handler=_cmd_hand)
