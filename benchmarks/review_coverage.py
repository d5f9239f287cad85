"""Coverage of the review report's intervals when the gold plays the reviewer (issue 21's simulation).

Usage: python benchmarks/review_coverage.py [--detectors patterns] [--detectors patterns,lexicons]
       [--sizes 50,100,200,400] [--repeats 200] [--seed 0] [--df satterthwaite|design]
       [--variance linearization|jackknife] [--skew matched|none|johnson|hall] [--many-spans 3]
       [--json out.json]
       [--plot narrowing.png]
       [DATA]

DATA is a PhysioNet deid folder with gold (default: the development notes shipped in the package). The
configured detection runs once over every note; the gold says, per note, which identifiers it missed (a
gold entity with a letter or digit not covered by a detected span), which detected spans are PHI (they
overlap a gold span) and whether the note is flagged. The true values are those of all notes. Then, for
each sample size and design, ``--repeats`` samples are drawn with anonymed's own sampler
(``review.sampling.draw_sample``) and estimated with the report's own estimator
(``review.estimate.ratio_interval``); the benchmark prints how often the 95% interval covers the truth
and its mean width. Designs: ``srs`` (one stratum, no over-sampling) and ``stratified`` (three length
bands crossed with the flag (at least 3 detected spans, a low-confidence span or detectors that disagree),
flagged notes over-sampled 3 times: the defaults of ``review sample``).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from anonymed.config import PipelineConfig
from anonymed.document import Document
from anonymed.evaluate.tokens import coverage, fully_covered, tokenize
from anonymed.io.registry import open_reader
from anonymed.randomness import check_random_state
from anonymed.review.estimate import DF_RULES, SKEW_RULES, VARIANCE_RULES, Interval, Unit, ratio_interval
from anonymed.review.sample import FlaggingDetection, SampleOptions
from anonymed.review.sampling import Frame, band_of, draw_sample, length_bands, stratum_name

DEV = Path(__file__).resolve().parents[1] / "src" / "anonymed" / "resources" / "training" / "physionet_deid"
DEFAULTS = SampleOptions()
DESIGN_NAMES = {"srs": "simple random", "stratified": "review sample's default"}


@dataclass(frozen=True)
class Truth:
    """What the gold says of one note."""

    index: int
    tokens: int
    flagged: bool
    missed: dict[str, int]
    detected: int
    confirmed: int


def judge(
    docs: Sequence[Document], detectors: tuple[str, ...], many_spans: int = DEFAULTS.many_spans
) -> list[Truth]:
    """Run detection once over every note and let the gold judge it (``many_spans``: the flag's threshold)."""
    detection = FlaggingDetection(PipelineConfig(detectors=detectors), DEFAULTS.low_confidence, many_spans)
    truths = []
    for index, doc in enumerate(docs):
        done, flagged = detection(doc)
        mask = coverage(len(doc.text), done.spans)
        missed: dict[str, int] = {}
        for gold in doc.gold:
            words = tokenize(doc.text, gold.start, gold.end)
            if words and not fully_covered(mask, words):
                missed[gold.label.value] = missed.get(gold.label.value, 0) + 1
        confirmed = sum(any(g.start < s.end and s.start < g.end for g in doc.gold) for s in done.spans)
        truths.append(Truth(index, len(tokenize(doc.text)), flagged, missed, len(done.spans), confirmed))
    return truths


Measure = Callable[[Truth], tuple[float, float]]


def measures(labels: Sequence[str]) -> dict[str, Measure]:
    """The report's figures as (numerator, denominator) per note."""
    found: dict[str, Measure] = {
        "missed per token": lambda t: (sum(t.missed.values()), t.tokens),
        "notes with a miss": lambda t: (min(1, sum(t.missed.values())), 1),
        "precision": lambda t: (t.confirmed, t.detected),
    }
    for label in labels:
        found[f"missed per token, {label}"] = lambda t, lab=label: (t.missed.get(lab, 0), t.tokens)
    return found


def frames(truths: Sequence[Truth], design: str) -> list[Frame]:
    """The sampling frame of a design."""
    if design == "srs":
        return [Frame(t.index, "all", t.tokens) for t in truths]
    bounds = length_bands([t.tokens for t in truths], DEFAULTS.length_bands)
    return [
        Frame(t.index, stratum_name(band_of(t.tokens, bounds), t.flagged), t.tokens, t.flagged)
        for t in truths
    ]


def sample_seed(seed: int, n: int, rep: int) -> int:
    """The seed of one simulated sample: distinct per (seed, n, repeat); two seeds share no sample."""
    return (seed * 100_000 + n) * 1_000_000 + rep


def simulate(
    truths: Sequence[Truth],
    design: str,
    n: int,
    repeats: int,
    seed: int,
    df_rule: str = "satterthwaite",
    variance_rule: str = "linearization",
    skew_rule: str = "matched",
) -> dict[str, dict[str, float]]:
    """Coverage and mean width of each figure's interval over ``repeats`` samples of ``n`` notes."""
    frame = frames(truths, design)
    oversample = 1.0 if design == "srs" else DEFAULTS.oversample
    by_index = {t.index: t for t in truths}
    labels = sorted({label for t in truths for label in t.missed})
    results: dict[str, list[tuple[bool, bool, float]]] = {}
    bounds: dict[str, list[tuple[float, float]]] = {}
    for name, measure in measures(labels).items():
        totals = [measure(t) for t in truths]
        true = sum(y for y, _ in totals) / sum(x for _, x in totals)
        results[name] = []
        bounds[name] = []
        for rep in range(repeats):
            draw = draw_sample(frame, n, oversample, check_random_state(sample_seed(seed, n, rep)))
            units = [Unit(f.stratum, *measure(by_index[f.index])) for f in draw.order]
            interval: Interval = ratio_interval(
                units, draw.population, df_rule=df_rule, variance_rule=variance_rule, skew_rule=skew_rule
            )
            if interval.lower is None or interval.upper is None:
                continue
            covered = interval.lower <= true <= interval.upper
            results[name].append((covered, true <= interval.upper, interval.upper - interval.lower))
            bounds[name].append((interval.lower, interval.upper))
        results[name + " (truth)"] = [(True, True, true)]
    summary = {}
    for name, runs in results.items():
        if name.endswith("(truth)"):
            continue
        summary[name] = {
            "truth": results[name + " (truth)"][0][2],
            "samples": len(runs),
            "coverage": sum(c for c, _, _ in runs) / len(runs) if runs else float("nan"),
            "upper_holds": sum(u for _, u, _ in runs) / len(runs) if runs else float("nan"),
            "mean_width": statistics.fmean(w for _, _, w in runs) if runs else float("nan"),
            "mean_lower": statistics.fmean(b[0] for b in bounds[name]) if runs else float("nan"),
            "mean_upper": statistics.fmean(b[1] for b in bounds[name]) if runs else float("nan"),
        }
    return summary


def plot(runs: Sequence[dict[str, Any]], sizes: Sequence[int], path: Path) -> None:
    """The per-token interval narrowing with n: mean lower and upper bounds per design, and the truth."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = sorted({"+".join(run["detectors"]) for run in runs}, key=len)
    fig, axes = plt.subplots(1, len(configs), figsize=(4.2 * len(configs), 3.4), squeeze=False)
    name = "missed per token"
    for ax, config in zip(axes[0], configs, strict=True):
        for offset, run in enumerate(r for r in runs if "+".join(r["detectors"]) == config):
            table = run["by_n"]
            xs = [n * (1.06 if offset else 0.94) for n in sizes]
            lower = [table[n][name]["mean_lower"] * 1000 for n in sizes]
            upper = [table[n][name]["mean_upper"] * 1000 for n in sizes]
            ax.vlines(
                xs,
                lower,
                upper,
                color=f"C{offset}",
                lw=3,
                label=f"{DESIGN_NAMES.get(run['design'], run['design'])}: mean 95% interval",
            )
        ax.axhline(table[sizes[0]][name]["truth"] * 1000, color="black", ls="--", lw=1, label="truth")
        ax.set_xscale("log")
        ax.minorticks_off()
        ax.set_xticks(list(sizes), [str(n) for n in sizes])
        ax.set_ylim(bottom=0)
        ax.set_xlabel("notes reviewed")
        ax.set_ylabel("missed identifiers per 1,000 tokens")
        ax.set_title(f"detectors: {config}", fontsize=10)
    axes[0][-1].legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    """Run the simulation and print one table per detector configuration and design."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEV, help="PhysioNet deid folder with gold")
    parser.add_argument("--detectors", action="append", help="comma-separated detectors (repeatable)")
    parser.add_argument("--sizes", default="50,100,200,400")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--designs", default="srs,stratified")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--df", default="satterthwaite", choices=DF_RULES, help="degrees of freedom of the variance (compare)"
    )
    parser.add_argument(
        "--variance", default="linearization", choices=VARIANCE_RULES, help="variance of the ratio (compare)"
    )
    parser.add_argument(
        "--skew", default="matched", choices=SKEW_RULES, help="skewness correction of the interval (compare)"
    )
    parser.add_argument(
        "--many-spans", type=int, default=DEFAULTS.many_spans, help="flag notes with this many spans (0: off)"
    )
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--plot", type=Path, help="write the interval-narrowing figure (PNG) here")
    args = parser.parse_args()
    docs = [d for d in open_reader(args.data, "physionet-deid") if isinstance(d, Document)]
    sizes = [int(x) for x in args.sizes.split(",")]
    runs: list[dict[str, Any]] = []
    everything = {
        "notes": len(docs),
        "repeats": args.repeats,
        "seed": args.seed,
        "df": args.df,
        "variance": args.variance,
        "skew": args.skew,
        "many_spans": args.many_spans,
        "runs": runs,
    }
    for config in args.detectors or ["patterns"]:
        detectors = tuple(x.strip() for x in config.split(",") if x.strip())
        truths = judge(docs, detectors, args.many_spans)
        missed = sum(sum(t.missed.values()) for t in truths)
        flagged = sum(t.flagged for t in truths)
        print(
            f"\n## detectors {'+'.join(detectors)}: {len(truths)} notes, {missed} missed identifiers, "
            f"{flagged} flagged notes"
        )
        for design in args.designs.split(","):
            print(f"\n{design}: coverage of the 95% interval over {args.repeats} samples / share where the")
            print("upper bound holds (mean width)")
            print(f"{'figure':32} {'truth':>10} " + " ".join(f"{'n=' + str(n):>24}" for n in sizes))
            table = {
                n: simulate(truths, design, n, args.repeats, args.seed, args.df, args.variance, args.skew)
                for n in sizes
            }
            for name in table[sizes[0]]:
                scale = 1000 if "per token" in name else 1
                cells = " ".join(
                    f"{table[n][name]['coverage']:6.1%} {table[n][name]['upper_holds']:6.1%}"
                    f" ({table[n][name]['mean_width'] * scale:7.3f})"
                    for n in sizes
                )
                print(f"{name:32} {table[sizes[0]][name]['truth'] * scale:10.4f} {cells}")
            runs.append({"detectors": list(detectors), "design": design, "by_n": table})
    print("\n(per-token figures are per 1,000 tokens)")
    if args.json is not None:
        args.json.write_text(json.dumps(everything, indent=2), encoding="utf-8")
    if args.plot is not None:
        plot(runs, sizes, args.plot)


if __name__ == "__main__":
    main()
