"""The report's matplotlib figures, drawn from its JSON data (PNG files next to the report)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

ANONYMITY_METRICS = ("smr", "alid", "lr", "lrdi", "lrqi")
RETENTION_METRICS = ("jsc", "nsdcg")


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _grouped_bars(ax: Any, groups: Sequence[str], series: dict[str, list[float]], errors: Any = None) -> None:
    """Bars of each series side by side within each group."""
    width = 0.8 / max(len(series), 1)
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        yerr = None if errors is None else errors[name]
        ax.bar(xs, values, width, label=name, yerr=yerr, capsize=2 if yerr is not None else 0)
    ax.set_xticks(range(len(groups)), groups)


def _save(fig: Any, plt: Any, path: Path) -> None:
    """Lay out, write (110 dpi) and close one figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def metrics_by_method(data: dict[str, Any], plt: Any, path: Path) -> str | None:
    """Anonymity and retention metrics by method (Figure 1 of Alves et al.)."""
    anonymity = data.get("anonymity", {}).get("methods", {})
    retention = data.get("retention", {}).get("methods", {})
    metrics = [m for m in ANONYMITY_METRICS if anonymity] + [m for m in RETENTION_METRICS if retention]
    names = [m["name"] for m in data["methods"]]
    if not metrics or not names:
        return None
    series = {}
    for name in names:
        values = [anonymity.get(name, {}).get("macro", {}).get(m) for m in metrics if m in ANONYMITY_METRICS]
        values += [retention.get(name, {}).get(m) for m in metrics if m in RETENTION_METRICS]
        series[name] = [0.0 if v is None else float(v) for v in values]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    _grouped_bars(ax, [m.upper() for m in metrics], series)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("score (higher is better)")
    ax.set_title("Anonymity and information retention by method")
    ax.legend(fontsize=8, ncol=min(len(series), 5), loc="upper center", bbox_to_anchor=(0.5, -0.08))
    _save(fig, plt, path)
    return "Anonymity (annotated corpus, averaged over notes) and retention (MTSamples test split) by method."


def f1_by_degree(data: dict[str, Any], plt: Any, path: Path) -> str | None:
    """Change of macro-F1 against the degree of obfuscation N (Figure 2 of Abdalla et al.)."""
    extrinsic = data.get("extrinsic")
    degrees = (extrinsic or {}).get("degrees", {})
    if not degrees:
        return None
    assert extrinsic is not None
    models = list(extrinsic["original"])
    series = {
        model: [float(extrinsic["methods"][name][model]["change"]) for name in degrees] for model in models
    }
    fig, ax = plt.subplots(figsize=(7, 4))
    _grouped_bars(ax, [f"N={d}" for d in degrees.values()], series)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.axhline(-5, color="grey", linestyle="--", linewidth=0.8, label="-5 points")
    ax.set_ylabel("change of macro-F1 (points)")
    ax.set_title("MTSamples specialty classification after word substitution")
    ax.legend(fontsize=8)
    _save(fig, plt, path)
    return "Absolute change of macro-F1 (points) by degree of obfuscation N, per classifier."


def privacy_utility(data: dict[str, Any], plt: Any, path: Path) -> str | None:
    """Every method as a point: LR on the annotated corpus against the mean F1 change and NSDCG."""
    anonymity = data.get("anonymity", {}).get("methods", {})
    extrinsic = data.get("extrinsic", {}).get("methods", {})
    retention = data.get("retention", {}).get("methods", {})
    if not anonymity or not (extrinsic or retention):
        return None
    panels = [(n, k) for n, k in (("extrinsic", extrinsic), ("retention", retention)) if k]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, (kind, results) in zip(axes[0], panels, strict=True):
        points = {"none": (anonymity["none"]["macro"]["lr"], 0.0 if kind == "extrinsic" else 1.0)}
        for name, scores in results.items():
            if name in anonymity:
                y = (
                    (sum(s["change"] for s in scores.values()) / len(scores))
                    if kind == "extrinsic"
                    else scores["nsdcg"]
                )
                points[name] = (anonymity[name]["macro"]["lr"], y)
        colours = {m["name"]: f"C{i}" for i, m in enumerate(data["methods"])}
        for name, (x, y) in points.items():
            ax.scatter([x], [y], color=colours.get(name, "black"))
            ax.annotate(name, (x, y), fontsize=8, xytext=(3, 3), textcoords="offset points")
        ax.set_xlabel("privacy: Levenshtein recall LR (higher is safer)")
        ax.set_ylabel(
            "utility: mean change of macro-F1 (points)" if kind == "extrinsic" else "utility: NSDCG"
        )
        ax.grid(alpha=0.3)
    fig.suptitle("Privacy-utility plane (one point per method)")
    _save(fig, plt, path)
    return "Each method as a point: LR on the annotated corpus against utility on MTSamples."


def intrinsic(data: dict[str, Any], plt: Any, path: Path) -> str | None:
    """Pearson correlation per benchmark and setting, with the confidence interval of the runs."""
    section = data.get("intrinsic")
    if not section:
        return None
    settings = section["settings"]
    benchmarks = list(next(iter(settings.values())))
    series, errors = {}, {}
    for name, results in settings.items():
        means = [results[b]["pearson"]["mean"] or 0.0 for b in benchmarks]
        lows = [m - (results[b]["pearson"]["low"] or m) for m, b in zip(means, benchmarks, strict=True)]
        highs = [(results[b]["pearson"]["high"] or m) - m for m, b in zip(means, benchmarks, strict=True)]
        series[name], errors[name] = means, [lows, highs]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    _grouped_bars(ax, benchmarks, series, errors)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("Pearson r (cosine vs human)")
    ax.set_title(
        f"Embeddings trained on original vs anonymized MTSamples ({section['runs']} runs, "
        f"{int(100 * section['level'])}% CI)"
    )
    ax.tick_params(axis="x", labelsize=8)
    ax.legend(fontsize=8, ncol=3)
    _save(fig, plt, path)
    return "Pearson correlation of embedding cosine similarity with human scores, per benchmark."


FIGURES = (
    ("metrics_by_method.png", metrics_by_method),
    ("f1_by_degree.png", f1_by_degree),
    ("privacy_utility.png", privacy_utility),
    ("intrinsic.png", intrinsic),
)


def draw_figures(data: dict[str, Any], folder: Path) -> list[dict[str, str]]:
    """Draw every figure the data allows; returns their file names and captions."""
    plt = _pyplot()
    drawn = []
    for name, draw in FIGURES:
        caption = draw(data, plt, Path(folder) / name)
        if caption is not None:
            drawn.append({"file": name, "caption": caption})
    return drawn
