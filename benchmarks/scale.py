"""Scoring at scale: time, peak memory and workers as the corpus grows.

    python benchmarks/scale.py                          # 100,000 generated documents, structure and teds
    python benchmarks/scale.py --million                # 1,000,000 (and 100,000, to see the growth)
    python benchmarks/scale.py --documents 20000 50000 --metrics structure
    python benchmarks/scale.py --pubmed                 # the PubMed GT copied 1x, 10x and 40x
    python benchmarks/scale.py --pubmed-jobs 1 2 4 8 16 # its 10x copy with each --jobs, then the default
    python benchmarks/scale.py --executor dask --jobs 2 # the same on a local dask cluster

Generated documents are small HTML tables (3 to 6 rows of 3 to 5 columns, a header row), each
with a result that differs from it in one of a few ways (a cell's text, a row dropped, two cells
merged, an extra column) or not at all, written by this script into a temporary folder (``--tmp``)
and deleted after. ``--pubmed`` scores the 863 files of the PubMed ground truth (in
``../shared/corpus/pubmed_gt/gt``, or ``$CONVERTABLES_CORPUS``) against themselves, copied 1x, 10x
and 40x under new names.

Each case runs ``convertables score --format json`` once, as a user does, its report written to a
file, and prints:

- seconds: the wall time of the whole command;
- peak MiB, tree: the largest sum of the memory of the command and all its worker processes,
  sampled every 0.1 s from /proc: proportional set sizes, where a page that forked workers share
  with the main process counts once (their resident sizes would count it once a process);
- peak MiB, one: the peak resident memory of the largest single process of the tree (the kernel's
  count, ``wait4``'s ``ru_maxrss``): the main process, which holds the run's records, unless a
  worker outgrew it;
- workers: the report's own count where it gives one, else the most worker processes seen at once
  (1 where the command scored alone);
- report MiB, and the report's total (its ``f1`` or ``teds``) as a check that the run scored.

Between sizes of one case, the growth of peak memory per 10,000 documents is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONVERTABLES_CORPUS", ROOT.parent / "shared" / "corpus"))
PY = sys.executable
PAGE = os.sysconf("SC_PAGE_SIZE")
PER_FOLDER = 10_000  # files a folder: a million in one folder is hard on the file system's tools


# -- a generated corpus ----------------------------------------------------------------------

def _table(rng: random.Random, i: int) -> tuple[list[list[str]], int]:
    rows, cols = rng.randint(3, 6), rng.randint(3, 5)
    header = [f"Column {c + 1}" for c in range(cols)]
    body = [[f"{rng.randint(0, 9999)}.{i % 100:02d}" if c else f"item {i}-{r}" for c in range(cols)]
            for r in range(rows - 1)]
    return [header, *body], cols


def _html(cells: list[list[str]], merged: tuple[int, int] | None = None) -> str:
    """An HTML page of one table; ``merged``: the cell at (row, column) spans its right neighbour."""
    out = ["<!DOCTYPE html><html><body><table>"]
    for r, row in enumerate(cells):
        tag = "th" if r == 0 else "td"
        out.append("<tr>")
        c = 0
        while c < len(row):
            if merged == (r, c) and c + 1 < len(row):
                out.append(f'<{tag} colspan="2">{row[c]} {row[c + 1]}</{tag}>')
                c += 2
                continue
            out.append(f"<{tag}>{row[c]}</{tag}>")
            c += 1
        out.append("</tr>")
    out.append("</table></body></html>\n")
    return "".join(out)


def generate(folder: Path, documents: int, seed: int = 28) -> tuple[Path, Path]:
    """``documents`` ground-truth tables under folder/gt and a result for each under folder/res,
    a subfolder of :data:`PER_FOLDER` each, the subfolders written in parallel (a million
    documents are two million files)."""
    from concurrent.futures import ProcessPoolExecutor

    gt, res = folder / "gt", folder / "res"
    starts = range(0, documents, PER_FOLDER)
    with ProcessPoolExecutor(max_workers=len(os.sched_getaffinity(0))) as pool:
        for _ in pool.map(_generate_folder, [(gt, res, start, min(start + PER_FOLDER, documents), seed)
                                             for start in starts]):
            pass
    return gt, res


def _generate_folder(job: tuple[Path, Path, int, int, int]) -> None:
    """Documents ``start`` to ``end`` - 1, in the subfolder of ``start`` (its own random
    numbers, seeded by the seed and the subfolder: the same corpus however it is spread)."""
    gt, res, start, end, seed = job
    rng = random.Random(seed * 1_000_003 + start // PER_FOLDER)
    sub = f"{start // PER_FOLDER:04d}"
    (gt / sub).mkdir(parents=True)
    (res / sub).mkdir(parents=True)
    for i in range(start, end):
        cells, cols = _table(rng, i)
        name = f"doc{i:07d}.html"
        (gt / sub / name).write_text(_html(cells), encoding="utf-8")
        kind = i % 5
        if kind == 1:  # a cell's text misread
            cells = [row[:] for row in cells]
            cells[1][cols - 1] = cells[1][cols - 1].replace(".", ",")
            result = _html(cells)
        elif kind == 2:  # the last row missed
            result = _html(cells[:-1])
        elif kind == 3:  # two cells of a row taken for one
            result = _html(cells, merged=(1, 0))
        elif kind == 4:  # a column split in two
            result = _html([[*row, ""] for row in cells])
        else:
            result = _html(cells)
        (res / sub / name).write_text(result, encoding="utf-8")


def pubmed_copies(folder: Path, copies: int) -> Path | None:
    """The PubMed ground truth, ``copies`` times under new names (hard links where the file system allows)."""
    source = CORPUS / "pubmed_gt" / "gt"
    if not source.is_dir():
        return None
    target = folder / f"pubmed-x{copies}"
    target.mkdir()
    files = sorted(source.glob("*.xml"))
    for k in range(copies):
        sub = target / f"c{k:02d}"
        sub.mkdir()
        for path in files:
            copy = sub / f"c{k:02d}-{path.name}"
            try:
                os.link(path, copy)
            except OSError:
                shutil.copyfile(path, copy)
    return target


# -- measuring one command -------------------------------------------------------------------

def _processes() -> dict[int, tuple[int, int]]:
    """Every process's parent and resident bytes, from /proc."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # (gone meanwhile)
        found[int(entry.name)] = (int(fields[1]), int(fields[21]) * PAGE)  # ppid, rss in pages
    return found


def _proportional(pid: int, resident: int) -> int:
    """A process's proportional set size: its resident pages, each shared one divided among the
    processes that share it (forked workers share their parent's pages: their resident sizes
    would count those once a worker); its resident size where the kernel does not say."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resident


def _tree(root: int, processes: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """The memory of ``root`` and its descendants together (proportional set sizes), and how many
    descendants."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    total, count, stack = 0, -1, [root]
    while stack:
        pid = stack.pop()
        if pid in processes:
            total += _proportional(pid, processes[pid][1])
            count += 1
        stack.extend(children.get(pid, ()))
    return total, max(count, 0)


def measure(argv: list[str], report: Path) -> dict:
    """Runs ``argv`` with its standard output into ``report``: wall time, peak memory, workers seen."""
    peak = {"tree": 0, "processes": 0}
    done = threading.Event()
    with open(report, "wb") as out:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, cwd=ROOT)

        def sample() -> None:
            while not done.is_set():
                total, count = _tree(child.pid, _processes())
                peak["tree"] = max(peak["tree"], total)
                peak["processes"] = max(peak["processes"], count)
                done.wait(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        errors = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        done.set()
        sampler.join()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({code}): {errors.decode(errors='replace')[-2000:]}")
    return {"seconds": elapsed, "tree_mib": peak["tree"] / 2**20, "one_mib": usage.ru_maxrss / 1024,
            "processes": peak["processes"], "report_mib": report.stat().st_size / 2**20,
            **_report_facts(report)}


def _report_facts(report: Path) -> dict:
    """The report's workers (where it says them), documents and total, read from its end."""
    with open(report, "rb") as data:
        data.seek(max(0, report.stat().st_size - (1 << 20)))
        tail = data.read().decode("utf-8", errors="replace")
    facts: dict = {}
    decoder = json.JSONDecoder()
    for key in ("total", "workers"):
        at = tail.rfind(f'"{key}": ')
        if at >= 0:
            try:
                facts[key] = decoder.raw_decode(tail, at + len(key) + 4)[0]
            except ValueError:
                pass
    return facts


def score_argv(gt: Path, res: Path, metric: str, args, jobs: int | None = None) -> list[str]:
    argv = [PY, "-m", "convertables", "score", "--gt", str(gt), "--result", str(res), "--metric", metric,
            "--format", "json"]
    jobs = args.jobs if jobs is None else jobs
    if jobs is not None:
        argv += ["--jobs", str(jobs)]
    if args.executor != "local":
        argv += ["--executor", args.executor]
    return argv


# -- the cases -------------------------------------------------------------------------------

HEADER = (f"{'case':<24} {'documents':>10} {'metric':<10} {'workers':>7} {'seconds':>8} {'docs/s':>7} "
          f"{'peak MiB tree':>13} {'peak MiB one':>12} {'report MiB':>10}  total")


def row(case: str, documents: int, metric: str, m: dict) -> str:
    total = m.get("total") or {}
    figure = total.get("f1", total.get("teds"))
    workers = m["workers"] if isinstance(m.get("workers"), int) else f"{max(1, m['processes'])}*"
    return (f"{case:<24} {documents:>10,} {metric:<10} {workers!s:>7} {m['seconds']:>8.1f} "
            f"{documents / m['seconds']:>7.0f} {m['tree_mib']:>13.0f} {m['one_mib']:>12.0f} "
            f"{m['report_mib']:>10.1f}  {'' if figure is None else f'{figure:.4f}'}")


def growth(label: str, sizes: list[tuple[int, dict]]) -> None:
    for (n1, a), (n2, b) in zip(sizes, sizes[1:]):
        per = lambda key: (b[key] - a[key]) / (n2 - n1) * 10_000  # noqa: E731
        print(f"  {label}: {n1:,} -> {n2:,} documents: peak x{b['one_mib'] / a['one_mib']:.2f} (one process), "
              f"x{b['tree_mib'] / a['tree_mib']:.2f} (tree); {per('one_mib'):+.1f} MiB (one) and "
              f"{per('tree_mib'):+.1f} MiB (tree) per 10,000 documents; time x{b['seconds'] / a['seconds']:.2f}")


def generated(folder: Path, sizes: list[int], args) -> None:
    by_metric: dict[str, list[tuple[int, dict]]] = {metric: [] for metric in args.metrics}
    for documents in sizes:
        corpus = (args.corpora or folder) / f"generated-{documents}"
        gt, res = corpus / "gt", corpus / "res"
        if args.corpora and (corpus / "complete").exists():  # made by an earlier run: the same documents
            print(f"{'':<24} (the {documents:,} documents generated earlier in {corpus})", flush=True)
        else:
            shutil.rmtree(corpus, ignore_errors=True)  # (a run stopped while generating)
            start = time.perf_counter()
            generate(corpus, documents)
            (corpus / "complete").touch()
            print(f"{'':<24} (generated {documents:,} documents and their results in "
                  f"{time.perf_counter() - start:.0f} s)", flush=True)
        for metric in args.metrics:
            m = measure(score_argv(gt, res, metric, args), folder / "report.json")
            print(row("generated", documents, metric, m), flush=True)
            by_metric[metric].append((documents, m))
        if not args.keep and not args.corpora:
            shutil.rmtree(corpus)
    for metric, measured in by_metric.items():
        growth(metric, measured)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, nargs="+", default=None, metavar="N",
                        help="sizes of the generated corpus (default: 100000)")
    parser.add_argument("--million", action="store_true", help="1,000,000 generated documents (after 100,000)")
    parser.add_argument("--metrics", nargs="+", default=["structure", "teds"], help="default: structure teds")
    parser.add_argument("--pubmed", action="store_true",
                        help="only the PubMed GT copied 1x, 10x and 40x, scored against itself")
    parser.add_argument("--jobs", type=int, help="passed to score (default: score's own)")
    parser.add_argument("--pubmed-jobs", type=int, nargs="+", default=None, metavar="N",
                        help="only the PubMed GT copied 10x, scored with each of these --jobs and with the default")
    parser.add_argument("--executor", default="local", choices=["local", "dask"], help="passed to score")
    parser.add_argument("--tmp", default=None, help="where corpora are generated (default: the system's)")
    parser.add_argument("--keep", action="store_true", help="keep the generated corpora (their folder is printed)")
    parser.add_argument("--corpora", type=Path, default=None, metavar="DIR",
                        help="generate the corpora in DIR and keep them there; a later run with the same DIR "
                             "scores those (e.g. one metric a run)")
    args = parser.parse_args(argv)
    sizes = sorted(set(args.documents or ([100_000, 1_000_000] if args.million else [100_000])))

    folder = Path(tempfile.mkdtemp(prefix="convertables-scale-", dir=args.tmp))
    print(f"python {sys.version.split()[0]}, {len(os.sched_getaffinity(0))} usable CPUs, corpora in {folder}")
    print(HEADER)
    try:
        if args.pubmed_jobs:
            gt = pubmed_copies(folder, 10)
            if gt is None:
                raise SystemExit(f"no PubMed ground truth at {CORPUS / 'pubmed_gt' / 'gt'}")
            documents = sum(1 for _ in gt.rglob("*.xml"))
            for jobs in args.pubmed_jobs:
                m = measure(score_argv(gt, gt, "structure", args, jobs), folder / "report.json")
                print(row(f"pubmed x10, --jobs {jobs}", documents, "structure", m), flush=True)
            m = measure(score_argv(gt, gt, "structure", args), folder / "report.json")
            print(row("pubmed x10, default jobs", documents, "structure", m), flush=True)
        elif args.pubmed:
            measured = []
            for copies in (1, 10, 40):
                gt = pubmed_copies(folder, copies)
                if gt is None:
                    raise SystemExit(f"no PubMed ground truth at {CORPUS / 'pubmed_gt' / 'gt'}")
                documents = sum(1 for _ in gt.rglob("*.xml"))
                m = measure(score_argv(gt, gt, "structure", args), folder / "report.json")
                print(row(f"pubmed x{copies}", documents, "structure", m), flush=True)
                measured.append((documents, m))
                shutil.rmtree(gt)
            growth("pubmed", measured)
        else:
            generated(folder, sizes, args)
    finally:
        if args.keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print("(workers marked * are counted from the processes seen, as the report does not say them: the most "
          "worker processes at once, or 1 where the command scored alone)")


if __name__ == "__main__":
    main()
