"""The rule engine: rules are data (rules/*.yaml), evaluated three-valued over a Report. No torch, no pynvml.

Import the submodules directly (engine.loader, engine.evaluate): this package imports nothing itself, so that
`rules list` does not pay for the evaluator and the whole report model.
"""
