"""The designer's tools: a ruleset's report card under strong play and a rule tuner.

* :mod:`meio.design.report`: plan (within a time budget), play and summarise a report
  card of one or several rulesets on duplicate deals (``meio design report``);
* :mod:`meio.design.measures` and :mod:`meio.design.stats`: the measures and their
  intervals;
* :mod:`meio.design.html`: the page and the Markdown summary;
* :mod:`meio.design.tune` and :mod:`meio.design.space`: the Optuna search over a variant
  file's keys (``meio design tune``).

docs/design.md explains each measure in a designer's words, with its source.
"""

from meio.design.rulesets import DesignError, ruleset

__all__ = ["DesignError", "ruleset"]
