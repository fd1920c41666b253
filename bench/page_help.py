"""Page help over moments: is the right offer made from the pages a person reads, and does Accept deliver it?

Each moment in `bench/page_moments.json` is a short context as the watcher renders it (a search, a page
visited with its address and title as ActivityWatch's web watcher gives them, typing in an editor or a word
processor), of one kind: a search with no page opened yet (the top results are read through a loopback search
engine), reading a page, writing after reading, coding after reading. `expect` says which page action is
right, what the right deliverable must contain (a distinctive line of the right code block, a key fact, the
page's link) and what it must not (code in another language, cookie banners, readers' comments).

The pages (`bench/pages/*.html`, written for this benchmark) are served on loopback by `tests/page_server.py`,
which is also the search engine. Every moment goes through the live path: `candidates.build(ground(context),
writes=False, material=live_source(context, PageReader("on", engine=...)))`, the first page offer is accepted
(`do_task(None, context, task, action, search="on", history_search=False, material=...)` with the same
reader, so Accept reads from the task's cache as live use does), and the help's text and copy buttons are
checked. A fresh reader per moment: its first read is uncached. One extraction before timing warms trafilatura
up (the assistant is a long-running process). A failure says why, found by looking where the expected line
went: not read, dropped by the extraction, kept as a paragraph, filtered by language, ranked below the three
shown, or not chosen as a key point.

Then the ~100 kB page (`--long`) is helped `--repeat` times by one reader (its first read uncached) and
`--repeat` times by fresh readers (every read uncached), and every moment is run again with web_search "ask"
and "off": the loopback server must see no request at all.

    .venv/bin/python bench/page_help.py [--moments FILE] [--pages DIR] [--long NAME] [--repeat N] [--json]
                                        [-v]
"""

from __future__ import annotations

import argparse
import html as html_lib
import json
import math
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGE_ACTIONS = ("page_code", "page_code_page", "page_notes", "page_notes_page", "page_points",
                "results_points")
KINDS = ("search", "reading", "writing_after_reading", "coding_after_reading")
SHOWN = 3  # code examples shown on Accept (page_help.code_examples' limit)


def substitute(value: Any, base: str) -> Any:
    """`value` with every "{base}" replaced by the server's address."""
    if isinstance(value, str):
        return value.replace("{base}", base)
    if isinstance(value, list):
        return [substitute(v, base) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, base) for k, v in value.items()}
    return value


def unrendered(context: list[dict[str, Any]]) -> list[str]:
    """The visits whose sentence is not the watcher's own (web_sentence) for the page they carry."""
    from urllib.parse import urlsplit

    from proactive.watcher.episodes.builder import web_sentence

    wrong = []
    for o in context:
        for p in o.get("pages") or ():
            browser = re.search(r" in ([\w ]+)\.$", o["event"])
            parts = urlsplit(p["url"])
            said = web_sentence({"url": f"{parts.scheme}://{parts.hostname}{parts.path}", "title": p["title"],
                                 "browser": browser.group(1) if browser else "Firefox"})
            if said != o["event"]:
                wrong.append(f"{o['event']!r} is not {said!r}")
    return wrong


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else 0.0


def deliverable(result: Any) -> str:
    """What Accept gives the person: the help's text and what its copy buttons hold."""
    return "\n".join([result.text, *(s.get("command") or "" for s in result.steps)])


def help_moment(context: list[dict[str, Any]], reader: Any) -> tuple[Any, list[Any], Any, float]:
    """(the first page offer or None, all offers, Accept's help or None, wall seconds) for one moment."""
    from proactive.assistant import candidates
    from proactive.assistant.grounding import ground
    from proactive.assistant.help import do_task
    from proactive.assistant.material import live_source

    started = time.perf_counter()
    offers = candidates.build(ground(context), writes=False, material=live_source(context, reader))
    offer = next((c for c in offers if c.action in PAGE_ACTIONS), None)
    result = None
    if offer is not None:
        result = do_task(None, context, offer.task, offer.action, search=reader.fetch, open_browser=False,
                         history_search=False, material=live_source(context, reader))
    return offer, offers, result, time.perf_counter() - started


def page_source(pages_dir: Path, needle: str) -> list[str]:
    """The bench pages whose HTML (entities decoded) holds `needle`."""
    return [p.name for p in sorted(pages_dir.glob("*.html"))
            if needle in html_lib.unescape(p.read_text(encoding="utf-8"))]


def why_missing(needle: str, moment: dict[str, Any], offer: Any, result: Any, reader: Any, pages_dir: Path,
                base: str) -> str:
    """Where an expected line went, in words: the first stage of the path that lost it."""
    from proactive.assistant.page_help import key_points

    if needle.startswith(base):
        read = ", ".join(u.rsplit("/", 1)[-1] for u in result.pages) or "none"
        return f"the page {needle.rsplit('/', 1)[-1]} was not among the pages read ({read})"
    found = _block_read(needle, result, reader, pages_dir, base)
    if isinstance(found, str):
        return found
    page, block = found
    if offer.action in ("page_code", "page_code_page"):
        return _why_code(needle, moment, offer, reader, page, block)
    points = key_points(page)
    return (f"key points: the sentence is on the page (a {block.kind}) but not among the {len(points)} "
            f"points chosen")


def _block_read(needle: str, result: Any, reader: Any, pages_dir: Path, base: str) -> tuple[Any, Any] | str:
    """The page read that holds `needle` and its block, or why there is none (in words)."""
    from proactive.assistant.pages import PageError

    sources = page_source(pages_dir, needle)
    if not sources:
        return "no bench page holds it (a moment error)"
    urls = [f"{base}/pages/{name}" for name in sources]
    read = [u for u in urls if u in result.pages]
    if not read:
        return (f"its page ({', '.join(sources)}) was not among the pages read: "
                f"{', '.join(u.rsplit('/', 1)[-1] for u in result.pages) or 'none'}")
    page = reader.cache.get(read[0])
    if page is None:
        try:
            page = reader.page(read[0])
        except PageError as exc:
            return f"its page could not be read ({exc})"
    blocks = [b for b in page.blocks if needle in b.text]
    if not blocks:
        return f"extraction: not in the text trafilatura kept of {sources[0]}"
    return page, blocks[0]


def _why_code(needle: str, moment: dict[str, Any], offer: Any, reader: Any, page: Any, block: Any) -> str:
    """Why a code line on a page read is not in the code offered: its block's kind, language or rank."""
    from proactive.assistant.grounding import FILE, QUERY, ground
    from proactive.assistant.material import live_source
    from proactive.assistant.page_help import block_language, code_examples, file_language
    from proactive.assistant.pages import CODE

    if block.kind != CODE:
        return f"extraction: kept as a {block.kind}, not as a code block (its line breaks lost)"
    grounding = ground(moment["context"])
    file = grounding.first(FILE)
    primary = offer.objects[0]
    found = live_source(moment["context"], reader)(primary)
    query = primary.text if primary.kind == QUERY or not (found and found.query) else found.query
    pages = list(found.pages) if found else [page]
    ranked = code_examples(pages, query, file.text if file else None, limit=100)
    rank = next((i for i, e in enumerate(ranked, 1) if needle in e.code), None)
    lang = block_language(block)
    if rank is None:
        return (f"language: its block reads as {lang or 'unknown'} (markup {block.lang or 'none'}), "
                f"not {file_language(file.text if file else None)}, or it is too long/short")
    better = ", ".join(f"{e.lang or '?'} block '{e.code.splitlines()[0][:40]}' ({e.score})"
                       for e in ranked[:SHOWN])
    return f"ranking: its block ranks {rank} of {len(ranked)} for '{query}' (shown: {better})"


def why_not_offered(moment: dict[str, Any], expected: str, reader: Any) -> list[str]:
    """Why the expected action was not offered: a page the sentence names that matches no visited page's
    title, or pages read without code in the file's language."""
    from proactive.assistant.grounding import FILE, PAGE, ground
    from proactive.assistant.material import _title_matches
    from proactive.assistant.page_help import block_language, file_language
    from proactive.assistant.pages import CODE

    grounding = ground(moment["context"])
    out = []
    titles = [p["title"] for o in moment["context"] for p in o.get("pages") or ()]
    for page in grounding.of(PAGE, recent_only=True):
        if titles and not any(_title_matches(page.text, t) for t in titles):
            out.append(f"the page '{page.text}' named in the sentence matches no visited page's title "
                       f"('{titles[-1]}'), so it has no material")
    if expected in ("page_code", "page_code_page"):
        file = grounding.first(FILE)
        wanted = file_language(file.text if file else None)
        read = [reader.cache.get(url) for url in list(reader.cache._pages)]  # every page this moment read
        langs = Counter(block_language(b) or "unknown" for p in read if p is not None for b in p.blocks
                        if b.kind == CODE)
        out.append(f"the pages read hold code blocks {dict(langs) or '{}'}; the file wants {wanted}")
    return out


def run_moment(moment: dict[str, Any], reader: Any, server: Any, pages_dir: Path) -> dict[str, Any]:
    expect = moment["expect"]
    before = len(server.requests)
    offer, offers, result, seconds = help_moment(moment["context"], reader)
    row: dict[str, Any] = {
        "id": moment["id"], "kind": moment["kind"], "expect": expect["action"], "seconds": round(seconds, 3),
        "requests": len(server.requests) - before, "offers": [c.action for c in offers],
        "action": offer.action if offer else None, "message": offer.message if offer else None,
        "offered": offer is not None, "right": bool(offer and offer.action == expect["action"]),
        "delivered": False, "missing": [], "present": [], "why": [], "pages": [], "parts": [],
    }
    if offer is None:
        row["why"].append("no page offer: " + (", ".join(row["offers"]) or "no offer at all"))
        row["why"] += why_not_offered(moment, expect["action"], reader)
        return row
    if offers[0] is not offer:
        row["why"].append(f"the page offer is not the first ({offers[0].action} is)")
    if not row["right"]:
        row["why"].append(f"action {offer.action}, expected {expect['action']}")
        row["why"] += why_not_offered(moment, expect["action"], reader)
    text = deliverable(result)
    row["pages"] = [u.rsplit("/", 1)[-1] for u in result.pages]
    row["parts"] = list(result.parts)
    row["missing"] = [s for s in expect["contains"] if s not in text]
    row["present"] = [s for s in expect["absent"] if s in text]
    row["delivered"] = not row["missing"] and not row["present"] and result.parts != ("error",)
    if result.parts == ("error",):
        row["why"].append("Accept gave nothing: " + result.text.splitlines()[0][:160])
    for needle in row["missing"]:
        why = why_missing(needle, moment, offer, result, reader, pages_dir, server.url)
        row["why"].append(f"missing '{needle}': {why}")
    for needle in row["present"]:
        row["why"].append(f"holds '{needle}', which it must not")
    row["text"] = text
    return row


def measure(args: argparse.Namespace, moments_raw: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every moment helped through a PageReader on the loopback page server (consent on), the long page timed by
    one reader and by fresh ones, and the requests made with consent "ask" and "off" (which must be none)."""
    from bench.page_server import page_server
    from proactive.assistant.pages import PageReader

    with page_server(args.pages) as server:
        # the engine under another name of the same loopback server: a page on the engine's own host would
        # count as a results page (PageReader.is_results), which no real result page is
        engine = server.url.replace("127.0.0.1", "localhost") + "/search?q={query}"
        moments = [substitute(m, server.url) for m in moments_raw]
        bad = [f"{m['id']}: {w}" for m in moments for w in unrendered(m["context"])]
        if bad:
            sys.exit("moments whose visits are not the watcher's sentences:\n" + "\n".join(bad))

        rows = [run_moment(m, PageReader("on", engine=engine), server, args.pages) for m in moments]
        requests_on = len(server.requests)

        # the ~100 kB page: the first moment that visits it, helped `repeat` times by one reader
        long_moment = next((m for m in moments for o in m["context"] for p in o.get("pages") or ()
                            if p["url"].endswith("/" + args.long)), None)
        long_times: list[float] = []  # one reader: the first read uncached, then held for the task
        long_cold: list[float] = []  # a fresh reader each time: every read uncached
        if long_moment is not None:
            reader = PageReader("on", engine=engine)
            for _ in range(args.repeat):
                long_times.append(help_moment(long_moment["context"], reader)[3])
            for _ in range(args.repeat):
                long_cold.append(help_moment(long_moment["context"], PageReader("on", engine=engine))[3])

        # consent not given: nothing may be requested, whatever is offered or accepted
        quiet: dict[str, int] = {}
        for setting in ("ask", "off"):
            before = len(server.requests)
            for m in moments:
                help_moment(m["context"], PageReader(setting, engine=engine))
            quiet[setting] = len(server.requests) - before
    return rows, {"long_moment": long_moment, "long_times": long_times, "long_cold": long_cold,
                  "requests_on": requests_on, "quiet": quiet}


def summarize(args: argparse.Namespace, rows: list[dict[str, Any]], measured: dict[str, Any]) -> dict[str, Any]:
    """The figures of a run: moments offered, right and delivered (per kind too), help times, the long page's
    times and the requests made under each consent."""
    n = len(rows)
    delivered = sum(r["delivered"] for r in rows)
    times = [r["seconds"] for r in rows]
    per_kind = {k: {"moments": sum(r["kind"] == k for r in rows),
                    "offered": sum(r["offered"] for r in rows if r["kind"] == k),
                    "right": sum(r["right"] for r in rows if r["kind"] == k),
                    "delivered": sum(r["delivered"] for r in rows if r["kind"] == k)} for k in KINDS}
    long_moment, long_times, long_cold = measured["long_moment"], measured["long_times"], measured["long_cold"]
    long_size = (args.pages / args.long).stat().st_size if (args.pages / args.long).exists() else 0
    return {
        "moments": n, "offered": sum(r["offered"] for r in rows), "right_action": sum(r["right"] for r in rows),
        "delivered": delivered, "share_delivered": round(delivered / n, 3), "per_kind": per_kind,
        "page_help_s": {"p50": round(percentile(times, 0.5), 3), "p95": round(percentile(times, 0.95), 3),
                        "max": round(max(times), 3)},
        "long_page": {"name": args.long, "bytes": long_size,
                      "moment": long_moment["id"] if long_moment else None,
                      "runs_s": [round(t, 3) for t in long_times],
                      "uncached_s": round(long_times[0], 3) if long_times else None,
                      "p50_s": round(percentile(long_times, 0.5), 3) if long_times else None,
                      "uncached_runs_s": [round(t, 3) for t in long_cold],
                      "uncached_p50_s": round(percentile(long_cold, 0.5), 3) if long_cold else None},
        "requests_consent_on": measured["requests_on"], "requests_consent_ask": measured["quiet"]["ask"],
        "requests_consent_off": measured["quiet"]["off"],
        "pages": len(list(args.pages.glob("*.html"))),
    }


def print_moments(rows: list[dict[str, Any]], verbose: bool) -> None:
    """One table row per moment (with its offer and help text when `verbose`)."""
    print("| moment | kind | expected | offered | right | delivered | ms | pages read |")
    print("|---|---|---|---|---|---|---:|---|")
    yes = {True: "yes", False: "no"}
    for r in rows:
        print(f"| {r['id']} | {r['kind']} | {r['expect']} | {r['action'] or '—'} | {yes[r['right']]} "
              f"| {yes[r['delivered']]} | {r['seconds'] * 1000:.0f} | {', '.join(r['pages'])} |")
        if verbose:
            shown = (r.get("text") or "").replace("\n", "\n    ")
            print(f"\n    offer: {r['message']}\n    {shown}\n")


def print_summary(summary: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """The totals, the table per kind, the failures with why, the help times and the requests made."""
    n, offered, right, delivered = (summary[k] for k in ("moments", "offered", "right_action", "delivered"))
    print(f"\n{summary['pages']} pages, {n} moments: offered {offered}, right action {right}, "
          f"delivered {delivered} ({delivered / n:.0%}; target 80%)\n")
    print("| kind | moments | offered | right action | delivered |")
    print("|---|---:|---:|---:|---:|")
    for k, v in summary["per_kind"].items():
        share = f"{v['delivered'] / v['moments']:.0%}" if v["moments"] else "—"
        print(f"| {k} | {v['moments']} | {v['offered']} | {v['right']} | {v['delivered']} ({share}) |")
    failures = [r for r in rows if not r["delivered"] or not r["right"]]
    print(f"\nFailures ({len(failures)}):")
    for r in failures:
        print(f"- {r['id']} ({r['kind']}, offered {r['action'] or 'nothing'}):")
        for why in r["why"]:
            print(f"    - {why}")
    t = summary["page_help_s"]
    print(f"\npage help (material read + Accept, wall time, uncached reader per moment): "
          f"p50 {t['p50'] * 1000:.0f} ms, p95 {t['p95'] * 1000:.0f} ms, max {t['max'] * 1000:.0f} ms")
    lp = summary["long_page"]
    if lp["runs_s"]:
        ms = ", ".join(f"{x * 1000:.0f}" for x in lp["runs_s"])
        cold = ", ".join(f"{x * 1000:.0f}" for x in lp["uncached_runs_s"])
        print(f"~100 kB page ({lp['name']}, {lp['bytes'] / 1000:.0f} kB, moment {lp['moment']}): "
              f"one reader, {len(lp['runs_s'])} runs: first (uncached) {lp['uncached_s'] * 1000:.0f} ms, p50 "
              f"{lp['p50_s'] * 1000:.0f} ms (target 1000 ms; runs {ms} ms); a fresh reader each run: p50 "
              f"{lp['uncached_p50_s'] * 1000:.0f} ms (runs {cold} ms)")

    print(f"loopback requests with consent on: {summary['requests_consent_on']}")
    print(f"requests with consent off: {summary['requests_consent_ask']} (web_search = \"ask\"), "
          f"{summary['requests_consent_off']} (\"off\")")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moments", type=Path, default=ROOT / "bench" / "page_moments.json")
    ap.add_argument("--pages", type=Path, default=ROOT / "bench" / "pages")
    ap.add_argument("--long", default="python_asyncio_guide.html", help="the ~100 kB page timed on its own")
    ap.add_argument("--repeat", type=int, default=5, help="times the long page is helped, each way")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each moment's offer and help text")
    args = ap.parse_args()

    from proactive.assistant.pages import extract

    raw = json.loads(args.moments.read_text(encoding="utf-8"))["moments"]
    if not raw:
        sys.exit(f"{args.moments}: no moments")
    extract("<html><body><article><h1>Warm</h1><p>" + "Warming the extractor up before timing. " * 5
            + "</p></article></body></html>", "http://127.0.0.1/warm")
    rows, measured = measure(args, raw)
    summary = summarize(args, rows, measured)
    if args.json:
        print(json.dumps({**summary, "results": [{k: v for k, v in r.items() if k != "text"} for r in rows]},
                         ensure_ascii=False, indent=1))
    else:
        print_moments(rows, args.verbose)
        print_summary(summary, rows)
    if summary["requests_consent_ask"] or summary["requests_consent_off"]:
        sys.exit(f"pages were requested without consent: ask {summary['requests_consent_ask']}, "
                 f"off {summary['requests_consent_off']}")


if __name__ == "__main__":
    main()
