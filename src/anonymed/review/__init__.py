"""Review and release: a person checks a sample, anonymed estimates what is left and writes the reports.

``sample`` draws and writes a review folder, ``decisions`` keeps what reviewers decide, ``estimate`` and
``report`` turn decisions into residual-risk figures with intervals, ``export`` turns them into allow/deny
lists and training annotations, ``server`` is the review page and ``release`` the ethics-board report.
"""
