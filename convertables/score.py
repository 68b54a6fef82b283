"""The name the scoring package had before it became :mod:`convertables.scoring`
(so that ``convertables.score`` could be the scoring function): importing
``ScoreSettings``, ``score_paths`` or ``default_jobs`` from here still works,
and the module, like the function, scores when called."""

import sys
import types

from .scoring import ScoreReport, ScoreSettings, default_jobs, metrics, score_documents, score_paths

__all__ = ["ScoreReport", "ScoreSettings", "default_jobs", "metrics", "score_documents", "score_paths"]


class _Callable(types.ModuleType):
    def __call__(self, *args, **kwargs):
        from .api import score

        return score(*args, **kwargs)


sys.modules[__name__].__class__ = _Callable
