"""Apache Otava's change points of each series given, the reference that ./lab history's ChangePoints is checked
against (OtavaAgreementTest). Reads {"options": {...}, "series": {name: [values]}} as JSON on stdin; writes
{name: [{"index", "pvalue", "mean_before", "mean_after"}]} as JSON. Needs apache-otava 0.8 (.ci/run installs it)."""
import json
import math
import sys

from otava.analysis import compute_change_points

given = json.load(sys.stdin)
options = given["options"]
answers = {}
for name, values in given["series"].items():
    points, _ = compute_change_points(values, window_len=options["window_len"], max_pvalue=options["max_pvalue"],
                                      min_magnitude=options["min_magnitude"])
    answers[name] = [{"index": int(p.index), "pvalue": None if math.isnan(p.stats.pvalue) else float(p.stats.pvalue),
                      "mean_before": float(p.stats.mean_1), "mean_after": float(p.stats.mean_2)} for p in points]
json.dump(answers, sys.stdout)
