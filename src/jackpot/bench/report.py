"""The benchmark's report: percentiles, the machine it ran on, a markdown table row."""

from __future__ import annotations

import contextlib
import os
import platform
from pathlib import Path
from typing import Any


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def machine() -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores, {cpu}, {mem:.0f} GB, Python {platform.python_version()}"


def table_row(result: dict[str, Any]) -> str:
    s = result["settings"]
    load = result.get("load_average_before", "")
    if "idle_sse_open" in result:
        return (f"| {result['date']} | idle SSE | {s['db']} | {s['processes']} | "
                f"{result['idle_sse_open']} streams | | | | "
                f"{result['server_rss_mb']} MB ({result['kb_per_stream']} KB/stream) | | | "
                f"{load} |")
    a, e = result["action_ms"], result["sse_ms"]
    paced = f", offered {result['offered_per_s']:g}/s" if result.get("offered_per_s") else ""
    return (f"| {result['date']} | play | {s['db']}{' + Redis' if s['redis'] else ''} | "
            f"{s['processes']} | {result['matches']} matches, {result['sse_open']} SSE{paced} | "
            f"**{result['actions_per_s']}** | {a['p50']} / {a['p95']} / {a['p99']} | "
            f"{e['p50']} / {e['p99']} | {result['server_rss_mb']} MB | "
            f"{result['health_per_s']} | {result['actions_over_health']} | {load} |")


TABLE_HEAD = (
    "| date | run | database | processes | load | actions/s | action ms p50/p95/p99 | "
    "SSE ms p50/p99 | server RSS | health req/s | actions/health | load avg before |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
)


def append_table(path: Path, result: dict[str, Any]) -> None:
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    header = f"\n### {result['machine']}\n\n`{result['command']}`\n\n" + TABLE_HEAD
    path.write_text(text.rstrip("\n") + "\n" + header + table_row(result) + "\n")
