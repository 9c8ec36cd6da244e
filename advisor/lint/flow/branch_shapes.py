"""What a branch does to the variables of its own test, which tells how often it runs: it updates a running value from
itself (every iteration once seeded), resets the counter it compares (once per interval), records a new best (now
and then), clears its own flag (once), or counts down a number of steps that a round starts over (its share of every
round) or that runs out once. Shared by guards.py's BranchGuards."""

from __future__ import annotations

import ast

from advisor.lint.names import dotted


def updates_a_running_value(branch: ast.If) -> bool:
    """``if avg_loss: avg_loss = avg_loss * decay + loss.item() * (1 - decay)`` ``else: avg_loss = loss.item()``: the
    test is the running value itself, which its body updates from itself and its else seeds -- true on every
    iteration once seeded, not a flag that holds now and then."""
    if not (isinstance(branch.test, ast.Name) and branch.orelse):
        return False
    name = branch.test.id
    def updates(statements: list[ast.stmt], from_itself: bool) -> bool:
        return any(isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
                   and (not from_itself or any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(s.value)))
                   for s in statements)
    return updates(branch.body, True) and updates(branch.orelse, False)


def resets_its_counter(branch: ast.If) -> bool:
    """``if logging_counter >= logging_interval: logging_counter = 0; ...``: a counter compared and reset in its branch --
    the branch runs once every interval."""
    test = branch.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    names = {dotted(side) for side in (test.left, test.comparators[0]) if isinstance(side, (ast.Name, ast.Attribute))}
    return any(isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
               and statement.value.value == 0 and any(dotted(t) in names for t in statement.targets)
               for statement in branch.body)


def advances_its_threshold(branch: ast.If) -> bool:
    """``if t.item() >= (self._export_n + 1) * self.export_timeStep: export(); self._export_n += 1`` (or ``next_save
    += interval``): a value compared against a mark the branch moves on -- it runs once each time the value passes
    the next mark, now and then."""
    test = branch.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))):
        return False
    marks = {dotted(n) for side in (test.left, test.comparators[0]) for n in ast.walk(side)
             if isinstance(n, (ast.Name, ast.Attribute)) and dotted(n)}
    return any(isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add)
               and dotted(statement.target) in marks for statement in branch.body)


def running_best(branch: ast.If) -> bool:
    """``if loss.item() < best_loss: best_loss = loss.item(); save(...)``: a new best, now and then (its test is the
    step's read, reported there; the reads in the branch run only on improvement)."""
    test = branch.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))):
        return False
    if any(isinstance(side, ast.Constant) for side in (test.left, test.comparators[0])):
        return False  # `if d_steps_left > 0: ...; d_steps_left -= 1`: a countdown of steps, no best to beat
    sides = {dotted(side) for side in (test.left, test.comparators[0]) if isinstance(side, (ast.Name, ast.Attribute))}
    return any(isinstance(statement, (ast.Assign, ast.AugAssign)) and any(
        dotted(t) in sides for t in (statement.targets if isinstance(statement, ast.Assign) else [statement.target]))
        for statement in branch.body)


def turns_itself_off(branch: ast.If) -> bool:
    """``if debug_first_batch: print(out.min().item()); debug_first_batch = False``: a flag its own branch clears
    runs that branch once (until something sets it again)."""
    test = branch.test
    return isinstance(test, (ast.Name, ast.Attribute)) and any(
        isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
        and statement.value.value in (False, None, 0) and any(dotted(t) == dotted(test) for t in statement.targets)
        for statement in branch.body)


def counts_rounds(test: ast.Compare, loop: ast.AST) -> bool:
    """``d_steps_left -= 1`` in the loop and ``d_steps_left = D_STEPS`` again when a round ends: a countdown that starts
    over -- its else (the generator's steps) runs on its share of every round, not once at the end."""
    name = test.left.id if isinstance(test.left, ast.Name) else None
    counted = reset = False
    for node in ast.walk(loop):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name \
                and isinstance(node.op, ast.Sub):
            counted = True
        elif isinstance(node, ast.Assign) and isinstance(node.value, (ast.Name, ast.Attribute, ast.Constant)) \
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            reset = True
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and any(  # a, b = D_STEPS, G_STEPS
                isinstance(t, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == name for e in t.elts)
                for t in node.targets):
            reset = True
    return counted and reset


def ran_out(test: ast.AST, assigned: set[str]) -> bool:
    """``t_prev >= 0`` / ``remaining > 0`` of a counter the loop sets: its else runs when the counter has run out,
    the last iteration (``alpha[t_prev] if t_prev >= 0 else torch.tensor(1.0)`` of a reverse diffusion loop)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id in assigned and isinstance(test.comparators[0], ast.Constant)):
        return False
    op, bound = test.ops[0], test.comparators[0].value
    return isinstance(op, ast.GtE) and bound == 0 or isinstance(op, ast.Gt) and bound in (0, -1)


def tensor_tested_away(test: ast.AST):
    """``if hasattr(t, "item"):`` (apex's to_python_float): the else branch runs only for a ``t`` that is no tensor --
    its name, whose kind that branch drops, or None."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "hasattr" \
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name) \
            and isinstance(test.args[1], ast.Constant) and test.args[1].value in ("item", "cpu", "detach"):
        return test.args[0].id
    return None
