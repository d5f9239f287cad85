"""Detectors and operators from other packages: entry points found without editing the registries, and
``register_detector`` / ``register_operator`` for code.

The test package is installed the way pip leaves one (a module and its ``.dist-info`` with
``entry_points.txt``) in a temporary folder put on the path: in this process, and for the CLI in a
subprocess that names the plug-in detector and operator in its configuration file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from anonymed.config import PipelineConfig
from anonymed.detect.base import Detector
from anonymed.detect.registry import DETECTORS, build_detector, detector_class, register_detector
from anonymed.document import Document, Span
from anonymed.errors import ConfigError
from anonymed.labels import Label
from anonymed.pipeline import Pipeline
from anonymed.substitute.base import Context, Operator
from anonymed.substitute.registry import OPERATORS, operator_class, register_operator

PACKAGE = "anonymed_site_plugin_test"
MODULE = textwrap.dedent(
    '''
    """A site's plug-in: its record numbers (SITE-123456) and an operator writing a fixed code."""
    import re
    from dataclasses import dataclass
    from anonymed.detect.base import Detector, DetectorParams
    from anonymed.document import Span
    from anonymed.labels import Label
    from anonymed.substitute.base import Operator

    @dataclass(frozen=True)
    class SiteParams(DetectorParams):
        prefix: str = "SITE"

    class SiteMrnDetector(Detector):
        name = "site_mrn"
        params_type = SiteParams

        def __init__(self, params=None):
            self.params = params or SiteParams()

        def detect(self, doc):
            pattern = re.compile(re.escape(self.params.prefix) + r"-\\d{6}")
            return [Span.of(doc.text, m.start(), m.end(), Label.ID, source=self.name, subtype="mrn")
                    for m in pattern.finditer(doc.text)]

    class SiteCodeOperator(Operator):
        name = "site_code"

        def operate(self, span, context):
            return "[RECORD]"

    class NotADetector:
        pass
    '''
)
ENTRY_POINTS = textwrap.dedent(
    f"""
    [anonymed.detectors]
    site_mrn = {PACKAGE}:SiteMrnDetector
    broken = {PACKAGE}:NotADetector
    missing = {PACKAGE}_absent:Nothing
    patterns = {PACKAGE}:SiteMrnDetector

    [anonymed.operators]
    site_code = {PACKAGE}:SiteCodeOperator
    """
)


def install_test_package(folder: Path) -> Path:
    """The package and its metadata, as ``pip install`` leaves them in site-packages."""
    folder.mkdir(parents=True)
    (folder / f"{PACKAGE}.py").write_text(MODULE, encoding="utf-8")
    info = folder / f"{PACKAGE}-0.1.dist-info"
    info.mkdir()
    metadata = f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: 0.1\n"
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    return folder


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = install_test_package(tmp_path / "site-packages")
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    monkeypatch.undo()
    sys.modules.pop(PACKAGE, None)
    DETECTORS.plugins(refresh=True)
    OPERATORS.plugins(refresh=True)


def test_an_installed_package_s_detector_and_operator_are_found_by_name(plugin_path: Path) -> None:
    assert "site_mrn" in DETECTORS and "site_mrn" in sorted(DETECTORS)
    assert DETECTORS.source("site_mrn") == "entry point"
    assert detector_class("site_mrn").__name__ == "SiteMrnDetector"
    config = PipelineConfig(detectors=("site_mrn",), operators={Label.ID: "site_code"}, seed=1)
    out = Pipeline(config).run(Document("d1", "Record SITE-123456 seen."))
    assert [(s.text, s.full_label, s.source) for s in out.spans] == [("SITE-123456", "ID/mrn", "site_mrn")]
    assert out.result == "Record [RECORD] seen."
    assert operator_class("site_code").__name__ == "SiteCodeOperator" and "site_code" in OPERATORS


def test_a_plugin_s_parameters_come_from_the_configuration(plugin_path: Path) -> None:
    detector = build_detector("site_mrn", {"prefix": "IPP"})
    assert [s.text for s in detector.detect(Document("d", "IPP-000001 and SITE-000002"))] == ["IPP-000001"]
    with pytest.raises(ConfigError, match="bad parameters for detector 'site_mrn'"):
        build_detector("site_mrn", {"colour": "blue"})


def test_bad_entry_points_are_errors_naming_them_and_built_ins_win(plugin_path: Path) -> None:
    with pytest.raises(ConfigError, match="'broken' does not name a Detector subclass"):
        detector_class("broken")
    with pytest.raises(ConfigError, match=r"'missing'.*cannot be loaded: ModuleNotFoundError"):
        detector_class("missing")
    assert DETECTORS.source("patterns") == "builtin"
    assert detector_class("patterns").__module__ == "anonymed.detect.patterns.detector"


def test_a_package_installed_after_the_first_look_up_is_still_found(tmp_path: Path) -> None:
    assert "site_mrn" not in DETECTORS  # read now, before the package exists
    folder = install_test_package(tmp_path / "later")
    sys.path.insert(0, str(folder))
    try:
        assert "site_mrn" in DETECTORS  # an unknown name reads the entry points again
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop(PACKAGE, None)
        DETECTORS.plugins(refresh=True)
    assert "site_mrn" not in DETECTORS


class ShoutDetector(Detector):
    """Flags the word SHOUT as OTHER."""

    name = "shout"

    def __init__(self, params: object = None) -> None:
        self.params = params

    def detect(self, doc: Document) -> list[Span]:
        start = doc.text.find("SHOUT")
        return [] if start < 0 else [Span.of(doc.text, start, start + 5, Label.OTHER, source=self.name)]


class StarsOperator(Operator):
    """Writes stars."""

    name = "stars"

    def operate(self, span: Span, context: Context) -> str:
        return "*" * len(span.text)


def test_register_in_code_then_name_in_a_configuration() -> None:
    register_detector("shout", ShoutDetector)
    register_operator("stars", StarsOperator)
    try:
        with pytest.raises(ConfigError, match="already taken"):
            register_detector("shout", ShoutDetector)
        with pytest.raises(ConfigError, match="already taken \\(builtin\\)"):
            register_detector("patterns", ShoutDetector, replace=True)
        with pytest.raises(ConfigError, match="not a Operator subclass"):
            register_operator("bad", ShoutDetector)  # type: ignore[arg-type]
        config = PipelineConfig(detectors=("shout",), operators={Label.OTHER: "stars"}, seed=1)
        assert Pipeline(config).run(Document("d", "a SHOUT b")).result == "a ***** b"
    finally:
        DETECTORS.unregister("shout")
        OPERATORS.unregister("stars")
    with pytest.raises(ConfigError, match="unknown detector 'shout'"):
        PipelineConfig(detectors=("shout",))


def test_the_cli_uses_an_entry_point_detector_named_in_its_configuration(tmp_path: Path) -> None:
    folder = install_test_package(tmp_path / "site-packages")
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps({"id": "n1", "text": "Seen SITE-654321 today."}) + "\n", encoding="utf-8")
    config = tmp_path / "site.toml"
    config.write_text('[pipeline]\ndetectors = ["site_mrn"]\n[operators]\nID = "site_code"\n')
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", "from anonymed.cli import main; main()", "deid", str(notes), "-o", str(out),
         "--config", str(config), "--seed", "1", "--no-progress"],
        capture_output=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(out.read_text(encoding="utf-8"))["text"] == "Seen [RECORD] today."
