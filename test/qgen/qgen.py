#!/usr/bin/env python3
"""qgen: a differential random GROUP BY query generator for gpugb.

With a fixed --seed it creates a few random tables (generated in SQL with
setseed() + random(), so it is fast and reproducible), generates --queries
random aggregation queries over them and runs each twice in one psql session:
with gpugb.enabled = off (PostgreSQL's own plan, the oracle) and with gpugb
on, gpugb.force = on and gpugb.require_gpu = on (plus gpugb.emulate_device =
on in --mode emulator).  The two results are compared as multisets: every
column exactly (as text, so numeric scales count), float4/float8 columns
within a relative tolerance (plus an absolute one derived from the number of
rows summed and the magnitude of the values, as float sums depend on the order
of additions), NaN = NaN.  If PostgreSQL raises an ERROR, gpugb must raise the
same message.

Only the Python 3 standard library and psql are used (psql is driven in
batches: one script and one session per batch of queries).  Connection
settings come from the usual PGHOST/PGPORT/PGUSER environment variables.

The types (TYPES) and aggregates (AGGS) are tables: --types and --aggs switch
entries on and off, so new types and aggregates can be tried once gpugb
supports them.

Exit status: 0 when every query matched, 1 on any mismatch, 2 on a usage or
set-up error.
"""

import argparse
import collections
import copy
import csv
import datetime
import hashlib
import io
import math
import operator
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

# --------------------------------------------------------------------------
# The type table.  family selects the value generator, literals and scalar
# expressions below; key is the weight of the type as a group key; default
# says whether --types enables it when not given (the types gpugb offloads;
# an entry that is off is tried with --types).
# --------------------------------------------------------------------------
TYPES = {
    'int2':        dict(sql='int2',        family='int',      default=True,  key=1.0),
    'int4':        dict(sql='int4',        family='int',      default=True,  key=1.0),
    'int8':        dict(sql='int8',        family='int',      default=True,  key=1.0),
    'float4':      dict(sql='float4',      family='float',    default=True,  key=0.2),
    'float8':      dict(sql='float8',      family='float',    default=True,  key=0.2),
    'date':        dict(sql='date',        family='date',     default=True,  key=1.0),
    'timestamp':   dict(sql='timestamp',   family='ts',       default=True,  key=1.0),
    'timestamptz': dict(sql='timestamptz', family='ts',       default=True,  key=1.0),
    'bool':        dict(sql='bool',        family='bool',     default=True,  key=0.6),
    # Offloaded since the first release (numeric: p <= 18; text: keys of at
    # most 16 bytes).
    'numeric':     dict(sql='numeric(18,3)', family='numeric', default=True, key=1.0),
    'text':        dict(sql='text',        family='text',     default=True,  key=1.0),
    'varchar':     dict(sql='varchar(20)', family='text',     default=True,  key=1.0),
    'char':        dict(sql='char(8)',     family='text',     default=True,  key=1.0),
    'uuid':        dict(sql='uuid',        family='uuid',     default=True,  key=1.0),
    'time':        dict(sql='time',        family='time',     default=True,  key=1.0),
    # numeric without a type modifier: every value keeps its own display
    # scale (1, 1.0 and 1.00 are one group), sums take the largest.
    'numeric_free': dict(sql='numeric',    family='numeric_free', default=True, key=1.0),
    # Offloaded as keys (by span) and in count/sum/avg/min/max.
    'interval':    dict(sql='interval',    family='interval', default=True,  key=1.0),
}

INTS = ('int2', 'int4', 'int8')
FLOATS = ('float4', 'float8')
ORDERED = INTS + FLOATS + ('date', 'timestamp', 'timestamptz', 'numeric', 'text',
                           'varchar', 'char', 'interval', 'time', 'numeric_free')
# Types whose equal values may print differently (numeric without a typmod:
# 1.0 = 1.00).  A GROUP BY key, min and max show one member, and which one
# depends on the row order in PostgreSQL too, so those outputs are compared
# by value: trim_scale() in the query.
BY_VALUE = ('numeric_free',)
INT_MAX = {'int2': 32767, 'int4': 2147483647, 'int8': 9223372036854775807}
FLOAT_MAX = {'float4': 3.4028234663852886e38, 'float8': 1.7976931348623157e308}

# --------------------------------------------------------------------------
# The aggregate table.  sig maps an argument type to PostgreSQL's result type
# ('any': every type, the result given by 'result').  err says how a float
# result may differ with the order of additions: 'sum', 'avg', 'var', or
# exact.  weight: how often it is picked; default: used unless --aggs says
# otherwise.
# --------------------------------------------------------------------------
_SUM = {'int2': 'int8', 'int4': 'int8', 'int8': 'numeric', 'float4': 'float4',
        'float8': 'float8', 'numeric': 'numeric', 'interval': 'interval',
        'numeric_free': 'numeric'}
_AVG = {'int2': 'numeric', 'int4': 'numeric', 'int8': 'numeric', 'float4': 'float8',
        'float8': 'float8', 'numeric': 'numeric', 'interval': 'interval',
        'numeric_free': 'numeric'}
_MINMAX = {t: ('text' if t == 'varchar' else t) for t in ORDERED}
_VAR = {'int2': 'numeric', 'int4': 'numeric', 'int8': 'numeric', 'float4': 'float8',
        'float8': 'float8', 'numeric': 'numeric', 'numeric_free': 'numeric'}
_BOOL = {'bool': 'bool'}

AGGS = {
    'count(*)':    dict(default=True,  weight=1.0, star=True, result='int8'),
    'count':       dict(default=True,  weight=0.7, sig='any', result='int8'),
    'sum':         dict(default=True,  weight=1.6, sig=_SUM, err='sum'),
    'avg':         dict(default=True,  weight=1.0, sig=_AVG, err='avg'),
    'min':         dict(default=True,  weight=1.0, sig=_MINMAX),
    'max':         dict(default=True,  weight=1.0, sig=_MINMAX),
    'bool_and':    dict(default=True,  weight=0.3, sig=_BOOL),
    'bool_or':     dict(default=True,  weight=0.3, sig=_BOOL),
    'every':       dict(default=True,  weight=0.15, sig=_BOOL),
    # exact over integers and numeric; over floats a shifted, compensated sum
    # (cuda/gpugb_fsum.h) against PostgreSQL's Youngs-Cramer: within 'var'.
    'stddev':      dict(default=True,  weight=0.2, sig=_VAR, err='var'),
    'stddev_pop':  dict(default=True,  weight=0.2, sig=_VAR, err='var'),
    'stddev_samp': dict(default=True,  weight=0.2, sig=_VAR, err='var'),
    'variance':    dict(default=True,  weight=0.2, sig=_VAR, err='var2'),
    'var_pop':     dict(default=True,  weight=0.2, sig=_VAR, err='var2'),
    'var_samp':    dict(default=True,  weight=0.2, sig=_VAR, err='var2'),
}

DEFAULT_TYPES = [t for t in TYPES if TYPES[t]['default']]
DEFAULT_AGGS = [a for a in AGGS if AGGS[a]['default']]

# Fallbacks at run time that are part of gpugb's design (a float sum that
# could overflow in one order of additions and not in another; values that
# have no device word; an integer key expression or aggregate argument the
# stride filler computes going out of range, where PostgreSQL's plan then
# raises its own error):
# not failures.
EXPECTED_FALLBACKS = re.compile(r'comes near the overflow limit|key is longer than 16 bytes'
                                r"|numeric expression's value does not fit"
                                r'|numeric CASE, COALESCE or GROUP BY key reads a NaN'
                                r'|interval sum could overflow|interval minimum or maximum has no'
                                r"|interval value's span is too large|interval GROUP BY key's span"
                                r'|numeric value .* has no device word'
                                r'|integer GROUP BY key expression is out of range'
                                r"|integer expression's value is out of its type's range"
                                r'|float expression overflows, underflows or divides by zero'
                                r'|date_trunc GROUP BY key is out of the timestamp range'
                                r'|extract GROUP BY key is infinite or too large')
REQUIRE_GPU_ERROR = 'gpugb: GPU aggregation did not finish: '
# The generated ORDER BY every output LIMIT n at a query's end (Generator.query).
LIMIT_TAIL = re.compile(r'\n ORDER BY [0-9, DESC]+ LIMIT \d+$')
FLOAT_OVERFLOW = 'value out of range: overflow'
# Errors the input scan raises while computing a row's expressions, whose first occurrence depends
# on the row order of the plan (see the comparison of errors in main).
ROW_ORDER_ERRORS = {'interval out of range', 'cannot subtract infinite timestamps'}

EPS4 = 2.0 ** -24
EPS8 = 2.0 ** -53
EPOCH = datetime.datetime(2000, 1, 1)
TIMEZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Berlin']


def q_lit(s):
    return "'" + s.replace("'", "''") + "'"


def iv_span(sql):
    """The span of an interval in microseconds, as exact numeric.

    PostgreSQL groups and compares intervals by span (months count 30 days,
    days 24 hours), so '1 day' and '24 hours' are one group and either may
    be the one printed (whichever row came first; in a parallel plan, any).
    Interval group keys and min/max results are compared by this value.
    (extract(epoch ...) would not do: it counts a year of months as 365.25
    days.)
    """
    return (f'(((extract(year FROM {sql}) * 12 + extract(month FROM {sql})) * 30'
            f' + extract(day FROM {sql})) * 86400000000 + extract(hour FROM {sql}) * 3600000000'
            f' + extract(minute FROM {sql}) * 60000000 + extract(microseconds FROM {sql}))')


# --------------------------------------------------------------------------
# Columns and their data.
# --------------------------------------------------------------------------
class Column:
    """One generated column: its type, distribution and SQL generator."""

    def __init__(self, name, typ):
        self.name = name
        self.type = typ
        self.family = TYPES[typ]['family']
        self.null_frac = 0.0
        self.card = 1
        self.dist = 'uniform'
        self.bound = None          # largest |finite value| for ints and floats
        self.specials = []         # SQL literals of special values
        self.special_frac = 0.0
        self.params = {}

    # The SQL of a base integer v in [0, card), by distribution.
    def base_sql(self):
        c = self.card
        if c <= 1:
            return '0::int8'
        if self.dist == 'zipf':
            return f'least(floor(power({c + 1}::float8, random()))::int8 - 1, {c - 1})'
        if self.dist == 'hot':
            return f'(CASE WHEN random() < 0.5 THEN 0 ELSE floor(random() * {c})::int8 END)'
        return f'floor(random() * {c})::int8'

    def base_value(self, rng):
        c = self.card
        if c <= 1:
            return 0
        if self.dist == 'zipf':
            return min(c - 1, int((c + 1) ** rng.random()) - 1)
        if self.dist == 'hot' and rng.random() < 0.5:
            return 0
        return rng.randrange(c)

    def value_sql(self):
        expr = FAMILIES[self.family].value_sql(self, self.base_sql())
        if self.specials:
            arr = ', '.join(self.specials)
            expr = (f'CASE WHEN random() < {self.special_frac} '
                    f'THEN (ARRAY[{arr}]::{TYPES[self.type]["sql"]}[])'
                    f'[1 + floor(random() * {len(self.specials)})::int] ELSE {expr} END')
        if self.null_frac > 0:
            expr = f'CASE WHEN random() < {self.null_frac} THEN NULL ELSE {expr} END'
        return f'({expr})::{TYPES[self.type]["sql"]}'

    def literal(self, rng):
        """A typical value of the column as an SQL literal of its type."""
        if self.specials and rng.random() < 0.05:
            return f'{rng.choice(self.specials)}::{TYPES[self.type]["sql"]}'
        return FAMILIES[self.family].literal(self, self.base_value(rng))

    def describe(self):
        extra = ''
        if self.specials:
            extra = f', specials {self.special_frac}: {" ".join(s.strip(chr(39)) for s in self.specials)}'
        return (f'{self.name} {TYPES[self.type]["sql"]}: {self.dist}, card {self.card}, '
                f'nulls {self.null_frac}{extra} {self.params}')


def pick_card(rng, limit=100000):
    c = rng.choice([1, 2, 3, 5, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000])
    return max(1, min(c, limit))


class IntFamily:
    @staticmethod
    def setup(col, rng, rows):
        t = col.type
        mx = INT_MAX[t]
        col.card = pick_card(rng, 60000 if t == 'int2' else 100000)
        strides = {'int2': [1, 1, 1],
                   'int4': [1, 1, 3, 1000, 10000],
                   'int8': [1, 1, 7, 1000000, 10 ** 12]}[t]
        stride = rng.choice(strides)
        while (col.card - 1) * stride > mx:
            stride = 1
            col.card = min(col.card, mx)
        span = (col.card - 1) * stride
        lo = max(-mx - 1, -mx // 2)
        hi = mx - span
        offset = rng.choice([0, 0, 1, -(span // 2), rng.randint(lo, max(lo, hi))])
        offset = max(-mx - 1, min(offset, mx - span))
        col.params = dict(offset=offset, stride=stride)
        col.bound = max(abs(offset), abs(offset + span))
        if rng.random() < 0.3:
            specials = [mx, -mx - 1, mx - 1, -mx]
            col.specials = [q_lit(str(v)) for v in rng.sample(specials, rng.randint(1, 4))]
            col.special_frac = rng.choice([0.0005, 0.002, 0.02])
            col.bound = mx + 1

    @staticmethod
    def value_sql(col, v):
        p = col.params
        return f"({p['offset']}::int8 + {v} * {p['stride']}::int8)"

    @staticmethod
    def literal(col, v):
        p = col.params
        return str(p['offset'] + v * p['stride'])


class FloatFamily:
    @staticmethod
    def setup(col, rng, rows):
        kind = rng.choice(['grid', 'grid', 'cont', 'cont', 'wide', 'huge'] if rng.random() < 0.25
                          else ['grid', 'grid', 'cont', 'cont', 'wide'])
        col.params = dict(kind=kind)
        if kind == 'grid':
            col.card = pick_card(rng)
            step = rng.choice([0.25, 0.1, 0.001, 1.0, 1000.0, 3.7])
            offset = rng.choice([0.0, -(col.card // 2) * step, 1e6])
            col.params.update(step=step, offset=offset)
            col.bound = max(abs(offset), abs(offset + (col.card - 1) * step))
        elif kind == 'cont':
            col.card = rows
            scale = rng.choice([1.0, 1000.0, 1e6])
            signed = rng.random() < 0.5
            col.params.update(scale=scale, signed=signed)
            col.bound = scale
        elif kind == 'wide':          # magnitudes from e^-20 to e^20, both signs
            col.card = rows
            col.bound = math.exp(20)
        else:                         # huge: sums overflow (PostgreSQL raises an ERROR)
            col.card = rows
            col.params['scale'] = 1e37 if col.type == 'float4' else 1e307
            col.bound = col.params['scale']
        if rng.random() < 0.4:
            specials = ["'NaN'", "'Infinity'", "'-Infinity'", "'-0'"]
            col.specials = rng.sample(specials, rng.randint(1, 4))
            col.special_frac = rng.choice([0.0005, 0.005, 0.05])

    @staticmethod
    def value_sql(col, v):
        p = col.params
        if p['kind'] == 'grid':
            return f"({p['offset']!r}::float8 + {v}::float8 * {p['step']!r}::float8)"
        if p['kind'] == 'cont':
            r = '(random() * 2 - 1)' if p['signed'] else 'random()'
            return f"({r} * {p['scale']!r}::float8)"
        if p['kind'] == 'wide':
            return '(CASE WHEN random() < 0.3 THEN -1 ELSE 1 END * exp(random() * 40 - 20))'
        return f"(random() * {p['scale']!r}::float8)"

    @staticmethod
    def literal(col, v):
        p = col.params
        if p['kind'] == 'grid':
            x = p['offset'] + v * p['step']
        elif p['kind'] == 'cont':
            x = (v / max(col.card, 1)) * p['scale'] * (2 if p['signed'] else 1) - (p['scale'] if p['signed'] else 0)
        elif p['kind'] == 'wide':
            x = math.exp((v / max(col.card, 1)) * 40 - 20)
        else:
            x = (v / max(col.card, 1)) * p['scale']
        if col.type == 'float4':
            x = float(f'{x:.6g}')
        return f"'{x!r}'::{col.type}"


class DateFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        step = rng.choice([1, 1, 7, 30])
        while col.card * step > 2000000:
            step = 1
        offset = rng.choice([0, -3650, rng.randint(-20000, 20000)])
        col.params = dict(step=step, offset=offset)
        if rng.random() < 0.25:
            col.specials = rng.sample(["'infinity'", "'-infinity'"], rng.randint(1, 2))
            col.special_frac = rng.choice([0.001, 0.02])

    @staticmethod
    def value_sql(col, v):
        p = col.params
        return f"(DATE '2000-01-01' + ({p['offset']} + {v} * {p['step']})::int4)"

    @staticmethod
    def literal(col, v):
        p = col.params
        d = EPOCH.date() + datetime.timedelta(days=p['offset'] + v * p['step'])
        return f"DATE '{d.isoformat()}'"


class TsFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        step_us = rng.choice([1, 250000, 10 ** 6, 37 * 10 ** 6, 60 * 10 ** 6, 3600 * 10 ** 6,
                              86400 * 10 ** 6])
        while col.card * step_us > 10 ** 17:
            step_us //= 1000
        offset_s = rng.choice([0, -86400 * 365, rng.randint(-10 ** 9, 10 ** 9)])
        jitter = rng.random() < 0.15      # nearly unique values on top of the grid
        if jitter:
            col.card = rows
        col.params = dict(step_us=step_us, offset_s=offset_s, jitter=jitter)
        if rng.random() < 0.25:
            col.specials = rng.sample(["'infinity'", "'-infinity'"], rng.randint(1, 2))
            col.special_frac = rng.choice([0.001, 0.02])

    @staticmethod
    def base(col):
        return ("TIMESTAMPTZ '2000-01-01 00:00:00+00'" if col.type == 'timestamptz'
                else "TIMESTAMP '2000-01-01 00:00:00'")

    @staticmethod
    def value_sql(col, v):
        p = col.params
        e = (f"({TsFamily.base(col)} + {p['offset_s']} * INTERVAL '1 second'"
             f" + ({v} * {p['step_us']}::int8) * INTERVAL '1 microsecond'")
        if p['jitter']:
            e += " + floor(random() * 86400000000) * INTERVAL '1 microsecond'"
        return e + ')'

    @staticmethod
    def literal(col, v):
        p = col.params
        t = EPOCH + datetime.timedelta(seconds=p['offset_s'], microseconds=v * p['step_us'])
        if col.type == 'timestamptz':
            return f"TIMESTAMPTZ '{t.isoformat(' ')}+00'"
        return f"TIMESTAMP '{t.isoformat(' ')}'"


class BoolFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = 2
        col.params = dict(p=rng.choice([0.5, 0.5, 0.05, 0.95, 1.0, 0.0]))

    @staticmethod
    def value_sql(col, v):
        return f"(random() < {col.params['p']})"

    @staticmethod
    def literal(col, v):
        return 'true' if v % 2 else 'false'


class NumericFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        col.params = dict(step=rng.choice(['0.01', '1', '0.333', '1000.5']),
                          offset=rng.choice(['0', '-500', '1e12']))
        if rng.random() < 0.3:
            col.specials = rng.sample(["'NaN'", "'999999999999999.999'", "'-999999999999999.999'"],
                                      rng.randint(1, 3))
            col.special_frac = rng.choice([0.001, 0.02])

    @staticmethod
    def value_sql(col, v):
        p = col.params
        return f"round({p['offset']}::numeric + {v}::numeric * {p['step']}::numeric, 3)"

    @staticmethod
    def literal(col, v):
        return NumericFamily.value_sql(col, v)


class NumericFreeFamily:
    """numeric without a typmod: values rounded to a per-row display scale,
    so equal values come with different scales (2, 2.0, 2.000)."""
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        col.params = dict(step=rng.choice(['0.01', '1', '0.333', '2.5', '0.0001']),
                          offset=rng.choice(['0', '-500', '1e9', '-0.5']),
                          scales=rng.choice([1, 3, 5, 7]))
        if rng.random() < 0.3:
            # NaN; Infinity, digits beyond any device scale and magnitudes
            # beyond 2^58 make gpugb fall back at run time
            col.specials = rng.sample(["'NaN'", "'Infinity'", "'-Infinity'", "'0.123456789'",
                                       "'123456789012345678901234.5'", "'1.50000000000'"],
                                      rng.randint(1, 3))
            col.special_frac = rng.choice([0.001, 0.02])

    @staticmethod
    def value_sql(col, v):
        p = col.params
        return (f"round({p['offset']}::numeric + ({v}) / 2 * {p['step']}::numeric, "
                f"(({v}) % {p['scales']})::int)")

    @staticmethod
    def literal(col, v):
        return NumericFreeFamily.value_sql(col, v)


class TextFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        col.params = dict(prefix=rng.choice(['k', 'row ', 'Ä', '', 'k', 'row ', 'Ä', '',
                                             'a prefix longer than 16 bytes ']))

    @staticmethod
    def value_sql(col, v):
        return f"({q_lit(col.params['prefix'])} || {v})"

    @staticmethod
    def literal(col, v):
        return q_lit(f"{col.params['prefix']}{v}") + f"::{TYPES[col.type]['sql']}"


class UuidFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)

    @staticmethod
    def value_sql(col, v):
        return f'md5({v}::text)::uuid'

    @staticmethod
    def literal(col, v):
        h = hashlib.md5(str(v).encode()).hexdigest()
        return f"'{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}'::uuid"


class IntervalFamily:
    """Spans on a grid (negative ones too), each row in one of several
    representations of its span: pure time, days + time (justify_hours),
    months + days + time (justify_interval), and in some columns, rarely,
    an irregular one (a day more and 24 hours less), so one group holds
    rows printed differently ('1 day' and '24:00:00')."""

    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        unit_us = rng.choice([1, 500000, 17 * 60 * 10 ** 6, 3600 * 10 ** 6, 27 * 3600 * 10 ** 6,
                              86400 * 10 ** 6, 30 * 86400 * 10 ** 6])
        # interval * float8 is exact below 2^53 microseconds
        while col.card > 1 and col.card * unit_us > 2 ** 52:
            col.card //= 2
        col.params = dict(unit_us=unit_us,
                          offset=-(col.card // 2) if rng.random() < 0.5 else 0,
                          mixed=rng.random() < 0.7,
                          irregular=rng.random() < 0.3)
        if rng.random() < 0.1:
            # Near the limits: sums may overflow (PostgreSQL raises in some
            # orders), keys and min/max may have no device word.
            col.specials = rng.sample(["'178000000 years'", "'-178000000 years'",
                                       "'2000000000 days'", "'2562047788 hours'",
                                       "'-2562047788 hours'"], rng.randint(1, 3))
            col.special_frac = rng.choice([0.0002, 0.002])

    @staticmethod
    def literal(col, v):
        p = col.params
        return f"(({v} + {p['offset']}) * {p['unit_us']} * INTERVAL '1 microsecond')"

    @staticmethod
    def value_sql(col, v):
        p = col.params
        x = IntervalFamily.literal(col, v)
        if not p['mixed']:
            return x
        # One branch runs per row, so the random v is drawn once.
        irregular = (f"WHEN random() < 0.02 THEN ({x} + INTERVAL '1 day' - INTERVAL '24 hours') "
                     if p['irregular'] else '')
        return (f'(CASE {irregular}WHEN random() < 0.3 THEN justify_hours({x}) '
                f'WHEN random() < 0.4 THEN justify_interval({x}) ELSE {x} END)')


class TimeFamily:
    @staticmethod
    def setup(col, rng, rows):
        col.card = pick_card(rng)
        col.params = dict(step=rng.choice(['7 seconds', '1 minute', '0.001 seconds']))

    @staticmethod
    def value_sql(col, v):
        return f"(TIME '00:00' + {v} * INTERVAL {q_lit(col.params['step'])})"

    literal = value_sql


FAMILIES = {'int': IntFamily, 'float': FloatFamily, 'date': DateFamily, 'ts': TsFamily,
            'bool': BoolFamily, 'numeric': NumericFamily, 'text': TextFamily,
            'numeric_free': NumericFreeFamily,
            'uuid': UuidFamily, 'interval': IntervalFamily, 'time': TimeFamily}


class Table:
    def __init__(self, name, rows, kind):
        self.name = name
        self.rows = rows
        self.kind = kind          # 'fact' or 'dim'
        self.columns = []         # random columns (not id / fk)
        self.analyze = True
        # Deleted rows and rows updated into new versions (dead tuples on
        # every page, live versions moved to the end): the scan, PostgreSQL's
        # or gpugb's direct heap reading, must see exactly the live ones.
        self.churn = False

    def create_sql(self, seed_value, dim_rows):
        cols = ['i::int8 AS id'] if self.kind == 'fact' else ['i::int4 AS id']
        if self.kind == 'fact':
            # fk to the dimension table: about 10 % miss, 5 % NULL.
            cols.append(f'(CASE WHEN random() < 0.05 THEN NULL ELSE 1 + floor(random() * '
                        f'{max(1, int(dim_rows * 1.1))})::int4 END) AS fk')
        for c in self.columns:
            cols.append(f'{c.value_sql()} AS {c.name}')
        body = ',\n       '.join(cols)
        sql = [f'DROP TABLE IF EXISTS {self.name};',
               f'SELECT setseed({seed_value!r});',
               f'CREATE TABLE {self.name} AS\nSELECT {body}\n  FROM generate_series(1, {self.rows}) i;']
        if self.kind == 'dim':
            sql.append(f'ALTER TABLE {self.name} ADD PRIMARY KEY (id);')
        if self.churn:
            sql.append(f'DELETE FROM {self.name} WHERE id % 13 = 4;')
            sql.append(f'UPDATE {self.name} SET id = id WHERE id % 17 = 6;')
        if self.analyze:
            sql.append(f'ANALYZE {self.name};')
        else:     # wrong estimates on purpose: the GPU hash table must grow
            sql.append(f'ALTER TABLE {self.name} SET (autovacuum_enabled = false);')
        return '\n'.join(sql)


class Schema:
    def __init__(self, seed, scale, types):
        rng = random.Random(f'qgen-schema/{seed}/{",".join(types)}')
        self.types = types
        nfacts = rng.randint(2, 4)
        self.tables = []
        dim = Table('qgen_d', 0, 'dim')
        dim_rows = rng.randint(100, 5000)
        ranges = [(100000, 300000), (10000, 100000), (1000, 20000), (1000, 5000)]
        facts = []
        for i in range(nfacts):
            lo, hi = ranges[i]
            facts.append(Table(f'qgen_t{i}', rng.randint(lo, hi), 'fact'))
        for ti, t in enumerate(facts + [dim]):
            ncols = (rng.randint(3, 6) if t.kind == 'dim'
                     else max(len(types) + rng.randint(2, 5), rng.randint(8, 14)))
            tlist = list(types) if ti == 0 else []      # t0 has every type at least once
            while len(tlist) < ncols:
                tlist.append(rng.choice(types))
            rng.shuffle(tlist)
            for j, typ in enumerate(tlist):
                c = Column(f'c{j}_{typ}', typ)
                t.columns.append(c)
        # Sizes are drawn last, so --scale does not change the columns.
        dim.rows = max(1, int(dim_rows * scale))
        for t in facts:
            t.rows = max(1, int(t.rows * scale))
        huge = 0
        for t in facts + [dim]:
            for c in t.columns:
                FAMILIES[c.family].setup(c, rng, t.rows)
                # At most one column whose sums overflow: its queries mostly fail.
                while c.params.get('kind') == 'huge' and huge:
                    FAMILIES[c.family].setup(c, rng, t.rows)
                huge += c.params.get('kind') == 'huge'
                c.null_frac = rng.choice([0.0, 0.0, 0.0, 0.01, 0.1, 0.3, 0.5])
                if c.family != 'bool':
                    c.dist = rng.choice(['uniform', 'uniform', 'zipf', 'hot'])
        if len(facts) > 1:
            rng.choice(facts[1:]).analyze = False
        # Drawn apart, so the columns and sizes above stay as they were.
        churn_rng = random.Random(f'qgen-churn/{seed}')
        for t in facts:
            t.churn = churn_rng.random() < 0.5
        self.facts = facts
        self.dim = dim
        self.tables = facts + [dim]
        self.seed_values = [round(rng.uniform(-0.99, 0.99), 6) for _ in self.tables]

    def setup_sql(self):
        parts = []
        for t, s in zip(self.tables, self.seed_values):
            parts.append(t.create_sql(s, self.dim.rows))
        return '\n'.join(parts) + '\n'

    def describe(self):
        lines = []
        for t in self.tables:
            lines.append(f'{t.name}: {t.rows} rows{"" if t.analyze else " (not analyzed)"}'
                         f'{" (1/13 deleted, 1/17 updated)" if t.churn else ""}')
            for c in t.columns:
                lines.append('  ' + c.describe())
        return '\n'.join(lines)


# --------------------------------------------------------------------------
# Scalar expressions, predicates and queries.
# --------------------------------------------------------------------------
class Expr:
    def __init__(self, sql, typ, bound=None, risky=False, col=None):
        self.sql = sql
        self.type = typ
        self.bound = bound        # largest |finite value| (ints, floats)
        self.risky = risky        # may raise an ERROR (overflow, infinite dates)
        self.col = col            # the column, for a bare column reference


def promote(a, b):
    order = ['int2', 'int4', 'int8']
    return order[max(order.index(a), order.index(b))]


class Ctx:
    """The columns a query can use and a bound on the rows aggregated."""

    def __init__(self, gen, rng):
        self.gen = gen
        self.rng = rng
        self.cols = []            # (sql reference, Column)
        self.nrows = 1
        self.fact = None          # (prefix, Table) when one fact table is the input
        self.fd_ok = False        # joined to the dimension table (functional dependency)
        self.param = None         # a condition with $1

    def add(self, prefix, table):
        self.add_cols(prefix, table.columns)

    def add_cols(self, prefix, cols):
        for c in cols:
            self.cols.append((f'{prefix}{c.name}', c))

    def col_expr(self, ref, c):
        return Expr(ref, c.type, c.bound, False, c)

    def pick(self, types=None, families=None):
        cands = [(r, c) for r, c in self.cols
                 if (types is None or c.type in types) and (families is None or c.family in families)]
        if not cands:
            return None
        # Columns whose sums overflow make queries fail: rarely.
        r, c = self.rng.choices(cands, [0.2 if c.params.get('kind') == 'huge' else 1.0
                                        for _, c in cands])[0]
        return self.col_expr(r, c)


class QueryGen:
    def __init__(self, schema, types, aggs):
        self.schema = schema
        self.types = set(types)
        self.aggs = aggs

    # ---- scalar expressions -------------------------------------------
    # Column types from which one transformation can reach a result type.
    SOURCES = {
        'int2': set(INTS), 'int4': set(INTS) | {'bool', 'date', 'text', 'varchar', 'char'},
        'int8': set(INTS), 'float4': set(INTS) | set(FLOATS), 'float8': set(INTS) | set(FLOATS),
        'date': {'date', 'timestamp', 'timestamptz'}, 'timestamp': {'date', 'timestamp', 'timestamptz'},
        'timestamptz': {'date', 'timestamp', 'timestamptz'}, 'bool': {'bool'},
        'numeric': {'numeric'}, 'text': {'text', 'varchar', 'char'}, 'varchar': {'varchar'},
        'char': {'char'}, 'uuid': {'uuid'}, 'interval': {'interval', 'timestamp', 'timestamptz'},
        'time': {'time'}, 'numeric_free': {'numeric_free'},
    }

    def scalar(self, ctx, want=None, plain=0.6, allow_risky=0.05, depth=0):
        """An expression of a type in want (None: any enabled type)."""
        rng = ctx.rng
        base_types = None
        if want is not None:
            base_types = set()
            for t in want:
                base_types |= self.SOURCES[t]
        for _ in range(60):
            e = ctx.pick(types=base_types)
            if e is None:
                return None
            if (want is not None and e.type not in want) or rng.random() >= plain:
                e2 = self.transform(ctx, e, depth)
                if e2 is not None:
                    e = e2
            if want is not None and e.type not in want:
                continue
            if e.type not in self.types:
                continue
            if e.risky and rng.random() >= allow_risky:
                continue
            return e
        return None

    def transform(self, ctx, e, depth):
        rng = ctx.rng
        f = TYPES[e.type]['family']
        opts = getattr(self, 't_' + f)(ctx, e, depth)
        opts = [o for o in opts if o is not None]
        if not opts:
            return None
        return rng.choice(opts)

    def case_when(self, ctx, e, other):
        return Expr(f'CASE WHEN {self.pred(ctx, 1)} THEN {e.sql} ELSE {other} END',
                    e.type, e.bound, e.risky)

    def t_int(self, ctx, e, depth):
        rng = ctx.rng
        t = e.type
        b = e.bound or 0
        k = rng.choice([2, 3, 7, 10, 100, 1000])
        o = []
        pt = promote(t, 'int4')
        o.append(Expr(f'({e.sql} % {k})', pt, min(b, k - 1), e.risky))
        o.append(Expr(f'({e.sql} / {k})', pt, b // k, e.risky))
        e2 = ctx.pick(types=INTS)
        if e2 is not None:
            rt = promote(t, e2.type)
            bb = b + (e2.bound or 0)
            o.append(Expr(f'({e.sql} + {e2.sql})', rt, bb, e.risky or bb > INT_MAX[rt]))
            bb = b + (e2.bound or 0)
            o.append(Expr(f'({e.sql} - {e2.sql})', rt, bb, e.risky or bb > INT_MAX[rt]))
        m = rng.choice([2, 3, -1])
        o.append(Expr(f'({e.sql} * {m})', pt, b * abs(m), e.risky or b * abs(m) > INT_MAX[pt]))
        o.append(Expr(f'abs({e.sql})', t, b, e.risky or b > INT_MAX[t]))
        o.append(Expr(f'(- {e.sql})', t, b, e.risky or b > INT_MAX[t]))
        o.append(Expr(f'{e.sql}::int8', 'int8', b, e.risky))
        o.append(Expr(f'({e.sql} % 100)::int2', 'int2', 99, e.risky))
        o.append(Expr(f'{e.sql}::float8', 'float8', float(b), e.risky))
        if t != 'int2' or b < 1000:
            o.append(Expr(f'{e.sql}::float4', 'float4', float(b), e.risky))
        lit = f'{e.col.literal(rng) if e.col else 0}::{t}'
        o.append(Expr(f'COALESCE({e.sql}, {lit})', t, b, e.risky))
        o.append(Expr(f'GREATEST({e.sql}, {lit})', t, b, e.risky))
        o.append(self.case_when(ctx, e, lit))
        o.append(Expr(f'CASE WHEN {self.pred(ctx, 1)} THEN 1 ELSE 0 END', 'int4', 1))
        return o

    def t_float(self, ctx, e, depth):
        rng = ctx.rng
        t = e.type
        b = e.bound or 0.0
        o = []
        o.append(Expr(f'({e.sql} * 2::{t})', t, b * 2,
                      e.risky or b * 2 > FLOAT_MAX[t]))
        e2 = ctx.pick(types=FLOATS)
        if e2 is not None:
            rt = 'float4' if t == 'float4' and e2.type == 'float4' else 'float8'
            bb = b + (e2.bound or 0.0)
            o.append(Expr(f'({e.sql} + {e2.sql})', rt, bb, e.risky or bb > FLOAT_MAX[rt]))
        e3 = ctx.pick(types=INTS)
        if e3 is not None:
            bb = b + float(e3.bound or 0)
            o.append(Expr(f'({e.sql} - {e3.sql})', 'float8', bb, e.risky or bb > FLOAT_MAX['float8']))
        o.append(Expr(f'abs({e.sql})', t, b, e.risky))
        o.append(Expr(f'(- {e.sql})', t, b, e.risky))
        o.append(Expr(f'{e.sql}::float8', 'float8', b, e.risky))
        o.append(Expr(f'floor({e.sql})', 'float8', b + 1, e.risky))
        o.append(Expr(f'COALESCE({e.sql}, 0::{t})', t, b, e.risky))
        o.append(self.case_when(ctx, e, 'NULL'))
        # the filler's float arithmetic: products, divisions (by zero: PostgreSQL's
        # error), a guarded division (computed by the scan), narrowing to float4
        e4 = ctx.pick(types=FLOATS)
        if e4 is not None:
            rt = 'float4' if t == 'float4' and e4.type == 'float4' else 'float8'
            bb = b * (e4.bound or 0.0)
            o.append(Expr(f'({e.sql} * {e4.sql})', rt, bb, e.risky or bb > FLOAT_MAX[rt]))
            o.append(Expr(f'({e.sql} / {e4.sql})', rt, None, True))
            o.append(Expr(f'(CASE WHEN {e4.sql} <> 0 THEN {e.sql} / {e4.sql} ELSE 0 END)', rt,
                          None, e.risky))
        o.append(Expr(f'({e.sql} * 0.5)::float4', 'float4', b * 0.5, e.risky or b * 0.5 > FLOAT_MAX['float4']))
        return o

    def t_date(self, ctx, e, depth):
        rng = ctx.rng
        o = []
        o.append(Expr(f'({e.sql} + {rng.choice([1, 7, -30])})', 'date'))
        o.append(Expr(f"date_trunc({q_lit(rng.choice(['month', 'year', 'week']))}, {e.sql})",
                      'timestamptz'))
        o.append(Expr(f'{e.sql}::timestamp', 'timestamp'))
        field = rng.choice(['day', 'month', 'quarter', 'week', 'year', 'dow', 'isodow', 'doy',
                            'isoyear', 'decade', 'century', 'epoch'])
        o.append(Expr(f'extract({field} FROM {e.sql})', 'numeric_free'))
        o.append(Expr(f"({e.sql} - DATE '2000-01-01')", 'int4', 10 ** 7,
                      bool(e.col and e.col.specials) or e.col is None))
        lit = e.col.literal(rng) if e.col else "DATE '2000-01-01'"
        o.append(Expr(f'COALESCE({e.sql}, {lit})', 'date'))
        o.append(self.case_when(ctx, e, lit))
        return o

    def t_ts(self, ctx, e, depth):
        rng = ctx.rng
        t = e.type
        o = []
        unit = rng.choice(['second', 'minute', 'hour', 'day', 'week', 'month', 'year'])
        o.append(Expr(f'date_trunc({q_lit(unit)}, {e.sql})', t))
        # the filler computes these for a timestamp column (keyexpr.c); second,
        # milliseconds and epoch are fractional (date_part's float8 of them is not)
        field = rng.choice(['minute', 'hour', 'day', 'month', 'quarter', 'week', 'year', 'dow',
                            'isodow', 'doy', 'isoyear', 'decade', 'century', 'millennium',
                            'second', 'milliseconds', 'epoch'])
        o.append(Expr(f'extract({field} FROM {e.sql})', 'numeric_free'))
        o.append(Expr(f'date_part({q_lit(field)}, {e.sql})', 'float8', 10 ** 6))
        o.append(Expr(f'{e.sql}::date', 'date'))
        o.append(Expr(f"({e.sql} + INTERVAL {q_lit(rng.choice(['1 hour', '1 day', '-1 month']))})", t))
        if t == 'timestamptz':
            o.append(Expr(f'{e.sql}::timestamp', 'timestamp'))
        else:
            o.append(Expr(f'{e.sql}::timestamptz', 'timestamptz'))
        if 'interval' in self.types:
            o.append(Expr(f"({e.sql} - TIMESTAMP '2000-01-01')", 'interval',
                          risky=bool(e.col and e.col.specials) or e.col is None))
        lit = e.col.literal(rng) if e.col else "TIMESTAMP '2000-01-01'"
        o.append(Expr(f'COALESCE({e.sql}, {lit})', t))
        o.append(self.case_when(ctx, e, lit))
        return o

    def t_bool(self, ctx, e, depth):
        return [Expr(f'(NOT {e.sql})', 'bool'),
                Expr(f'({e.sql} AND {self.pred(ctx, 1)})', 'bool'),
                Expr(f'({e.sql} OR {self.pred(ctx, 1)})', 'bool'),
                Expr(f'COALESCE({e.sql}, false)', 'bool'),
                Expr(f'({self.pred(ctx, 1)})', 'bool'),
                Expr(f'({e.sql} IS NULL)', 'bool'),
                Expr(f'CASE WHEN {e.sql} THEN 1 ELSE 0 END', 'int4', 1)]

    def t_numeric(self, ctx, e, depth):
        e2 = ctx.pick(types=['numeric'])
        # CASE ... ELSE and COALESCE whose arms differ in scale: each row
        # shows its arm's display scale (the filler's packed words)
        return [Expr(f'({e.sql} * 2)', 'numeric'), Expr(f'round({e.sql})', 'numeric'),
                Expr(f'abs({e.sql})', 'numeric'),
                Expr(f'({e.sql} + {e2.sql})', 'numeric') if e2 else None,
                Expr(f'CASE WHEN {self.pred(ctx, 1)} THEN {e.sql} * 2 ELSE 0 END', 'numeric_free'),
                Expr(f'COALESCE({e.sql} * 0.5, {e2.sql}, 0)', 'numeric_free') if e2 else None,
                # numeric -> float8 (PostgreSQL rounds through the decimal text)
                Expr(f'{e.sql}::float8', 'float8', 1e18, e.risky)]

    def t_numeric_free(self, ctx, e, depth):
        e2 = ctx.pick(types=['numeric_free', 'numeric'])
        return [Expr(f'({e.sql} * 2)', 'numeric_free'), Expr(f'round({e.sql}, 1)', 'numeric_free'),
                Expr(f'abs({e.sql})', 'numeric_free'), Expr(f'(-{e.sql})', 'numeric_free'),
                Expr(f'({e.sql} + {e2.sql})', 'numeric_free') if e2 else None,
                # over a CASE or COALESCE: packed arithmetic, per-row display scales
                Expr(f'({e.sql} * {e2.sql})', 'numeric_free') if e2 else None,
                Expr(f'COALESCE({e.sql}, 0) * 3 - 0.5', 'numeric_free'),
                Expr(f'{e.sql}::float8', 'float8', 1e18, e.risky)]

    def t_text(self, ctx, e, depth):
        return [Expr(f'upper({e.sql})', 'text'), Expr(f'substr({e.sql}, 1, 3)', 'text'),
                Expr(f"({e.sql} || 'x')", 'text'), Expr(f"COALESCE({e.sql}, '')", e.type),
                Expr(f'length({e.sql})', 'int4', 100)]

    def t_uuid(self, ctx, e, depth):
        return [Expr(f'COALESCE({e.sql}, {e.col.literal(ctx.rng)})', 'uuid') if e.col else None]

    def t_interval(self, ctx, e, depth):
        return [Expr(f'({e.sql} * 2)', 'interval'), Expr(f'justify_hours({e.sql})', 'interval')]

    def t_time(self, ctx, e, depth):
        return [Expr(f"({e.sql} + INTERVAL '1 hour')", 'time'),
                Expr(f"date_trunc('hour', {e.sql}::interval)::time", 'time')]

    # ---- predicates -----------------------------------------------------
    def atom(self, ctx):
        rng = ctx.rng
        ref, c = rng.choice(ctx.cols)
        r = rng.random()
        if r < 0.1:
            return f'{ref} IS {rng.choice(["", "NOT "])}NULL'
        if c.family == 'bool':
            return rng.choice([ref, f'NOT {ref}', f'{ref} IS TRUE', f'{ref} IS NOT FALSE'])
        if c.family == 'uuid':
            return f'{ref} {rng.choice(["=", "<>", "<", ">="])} {c.literal(rng)}'
        if r < 0.2:
            a, b = c.literal(rng), c.literal(rng)
            return f'{ref} BETWEEN SYMMETRIC {a} AND {b}'
        if r < 0.3:
            # NOT IN for a sixth of them (no extra draw: the stream stays as it was);
            # over a text column either form is checked by the heap reader itself
            neg = 'NOT ' if r >= 0.25 else ''
            return f'{ref} {neg}IN ({", ".join(c.literal(rng) for _ in range(rng.randint(1, 4)))})'
        if r < 0.38 and c.family == 'int':
            k = rng.choice([2, 3, 5, 10])
            return f'{ref} % {k} = {rng.randrange(k)}'
        op = rng.choice(['<', '<=', '>', '>=', '=', '<>'])
        # a column against another of its family (the filler's column-column truth steps)
        others = [r_ for r_, c_ in ctx.cols if c_.family == c.family and r_ != ref]
        if r < 0.46 and others and c.family in ('int', 'date', 'ts', 'numeric', 'float'):
            return f'{ref} {op} {rng.choice(others)}'
        # a numeric constant with digits beyond the column's scale (exact bounds, never equal)
        if r < 0.54 and c.family == 'numeric':
            return f'{ref} {op} ({c.literal(rng)} + 0.0005)'
        return f'{ref} {op} {c.literal(rng)}'

    def pred(self, ctx, depth=0):
        rng = ctx.rng
        r = rng.random()
        if depth < 2 and r < 0.2:
            return f'({self.pred(ctx, depth + 1)} AND {self.pred(ctx, depth + 1)})'
        if depth < 2 and r < 0.32:
            return f'({self.pred(ctx, depth + 1)} OR {self.pred(ctx, depth + 1)})'
        if depth < 2 and r < 0.35:
            return f'NOT ({self.pred(ctx, depth + 1)})'
        return self.atom(ctx)

    # ---- aggregates -----------------------------------------------------
    def aggregate(self, ctx):
        """(sql, result type, tolerance) of a random aggregate call."""
        rng = ctx.rng
        names = list(self.aggs)
        name = rng.choices(names, [AGGS[n]['weight'] for n in names])[0]
        a = AGGS[name]
        distinct = ''
        if a.get('star'):
            sql, rtype, arg = 'count(*)', a['result'], None
        else:
            if a['sig'] == 'any':
                want = None
            else:
                want = set(a['sig']) & self.types
            if want is not None and not want:
                return self.aggregate(ctx) if rng.random() < 0.9 else \
                    ('count(*)', 'int8', None)
            arg = self.scalar(ctx, want=want, plain=0.65)
            if arg is None:
                sql, rtype, arg = 'count(*)', 'int8', None
            else:
                rtype = a['result'] if a['sig'] == 'any' else a['sig'][arg.type]
                distinct = 'DISTINCT ' if rng.random() < 0.01 else ''
                if arg.type == 'interval':
                    # DISTINCT keeps one of the values equal by span ('1 mon'
                    # or '30 days') as its sort met them, and whether a sum
                    # overflows follows: PostgreSQL's own runs differ (seed
                    # 300001 q876 raised "interval out of range" once in
                    # three, declined by gpugb).  The draw stays, so later
                    # queries do not change.
                    distinct = ''
                sql = f'{name}({distinct}{arg.sql})'
        if rng.random() < 0.2:
            sql += f' FILTER (WHERE {self.pred(ctx, 1)})'
        if distinct and arg.type == 'numeric_free' and rtype == 'numeric':
            # DISTINCT keeps one of equal values (0 or 0.00) as its sort put
            # them, and the result's display scale follows it: PostgreSQL's
            # own plans differ (seed 41 q1378, declined by gpugb), so compare
            # by value.
            sql = f'trim_scale({sql})'
        if rtype in BY_VALUE:
            sql = f'trim_scale({sql})'           # min/max: one member, by value
        elif rtype == 'interval' and name in ('min', 'max'):
            # any row of the extreme span may be returned: compare spans
            sql, rtype = iv_span(sql), 'numeric'
        return sql, rtype, self.tolerance(a, rtype, arg, ctx.nrows)

    @staticmethod
    def tolerance(a, rtype, arg, n):
        """(relative, absolute) tolerance of a float result, None if exact."""
        if rtype not in FLOATS:
            return None
        err = a.get('err')
        m = arg.bound if arg is not None and arg.bound is not None else 1.0
        if m >= FLOAT_MAX['float8'] / 16:
            m = FLOAT_MAX['float8']
        n = max(n, 1)
        if err == 'sum':
            # PostgreSQL adds in the result type, gpugb in double precision
            # (then rounds once): over n rows PostgreSQL's own rounding error
            # grows to about n * eps * |sum| when one value repeats (one-sided
            # rounding), and to eps * m * n^1.5 in a random walk of partial sums.
            eps = EPS4 if rtype == 'float4' else EPS8
            rel = max(1e-5 if rtype == 'float4' else 1e-9, 2 * eps * n)
            return (rel, 4 * eps * m * n * math.sqrt(n))
        if err == 'avg':
            return (1e-9, 4 * EPS8 * m * math.sqrt(n))
        if err == 'var':
            return (1e-6, 1e-6 * m)
        if err == 'var2':
            return (1e-6, 1e-6 * m * m)
        return (0.0, 0.0)         # min, max: exact (but -0 = 0, NaN = NaN)

    # ---- FROM -----------------------------------------------------------
    def from_clause(self, ctx):
        rng = ctx.rng
        s = self.schema
        r = rng.random()
        fact = rng.choice(s.facts)
        if r < 0.55:
            ctx.add('t.', fact)
            ctx.nrows = fact.rows
            ctx.fact = ('t.', fact)
            return f'{fact.name} t'
        if r < 0.72:
            ctx.add('t.', fact)
            ctx.add('d.', s.dim)
            ctx.nrows = fact.rows
            ctx.fd_ok = True
            return f'{fact.name} t {rng.choice(["JOIN", "JOIN", "LEFT JOIN"])} {s.dim.name} d ON t.fk = d.id'
        if r < 0.78 and len(s.facts) > 1:
            other = rng.choice([f for f in s.facts if f is not fact])
            ctx.add('a.', fact)
            ctx.add('b.', other)
            ctx.nrows = min(fact.rows, other.rows)
            return f'{fact.name} a JOIN {other.name} b ON a.id = b.id'
        if r < 0.86:
            inner = Ctx(self, rng)
            inner.add('', fact)
            ctx.add('t.', fact)
            ctx.nrows = fact.rows
            return f'(SELECT * FROM {fact.name} WHERE {self.pred(inner)}) t'
        if r < 0.91:
            inner = Ctx(self, rng)
            inner.add('', fact)
            ctx.add('t.', fact)
            ctx.nrows = 2 * fact.rows
            return (f'(SELECT * FROM {fact.name} UNION ALL '
                    f'SELECT * FROM {fact.name} WHERE {self.pred(inner)}) t')
        if r < 0.96:
            return self.nested_from(ctx, fact)
        ctx.add('d.', s.dim)
        ctx.nrows = s.dim.rows
        return f'{s.dim.name} d'

    def nested_from(self, ctx, fact):
        """An aggregating subquery: the outer query groups its groups."""
        rng = ctx.rng
        inner = Ctx(self, rng)
        inner.add('', fact)
        cols = []
        items = []
        keys = []
        for _ in range(rng.randint(1, 3)):
            ref, c = rng.choice(inner.cols)
            # an interval group's representative is any of its rows: an outer
            # sum over it could differ legitimately
            if ref in keys or rng.random() >= TYPES[c.type]['key'] or c.type == 'interval':
                continue
            keys.append(ref)
            # (the outer query computes with it: a member's display scale
            # would depend on the row order, in PostgreSQL too)
            items.append(f'trim_scale({ref}) AS {ref}' if c.type in BY_VALUE else ref)
            cols.append(copy.copy(c))
        if not keys:
            ref, c = rng.choice([(r, c) for r, c in inner.cols
                                 if c.family not in ('float', 'interval')] or inner.cols)
            keys.append(ref)
            items.append(f'trim_scale({ref}) AS {ref}' if c.type in BY_VALUE else ref)
            cols.append(copy.copy(c))
        n = Column('n', 'int8')
        n.card, n.params, n.bound = 100, dict(offset=1, stride=1), fact.rows
        items.append('count(*) AS n')
        cols.append(n)
        for j in range(rng.randint(0, 2)):
            e = inner.pick(types=[t for t in self.types if t in ORDERED and t != 'interval'])
            if e is None or not ({'min', 'max'} & set(self.aggs)):
                break
            fn = rng.choice([a for a in ('min', 'max') if a in self.aggs])
            c = copy.copy(e.col)
            c.name = f'm{j}'
            items.append(f'trim_scale({fn}({e.sql})) AS m{j}' if e.type in BY_VALUE
                         else f'{fn}({e.sql}) AS m{j}')
            cols.append(c)
        where = f' WHERE {self.pred(inner)}' if rng.random() < 0.3 else ''
        for c, k in zip(cols, keys):
            c.name = k
        ctx.add_cols('s.', cols)
        ctx.nrows = fact.rows
        return f'(SELECT {", ".join(items)} FROM {fact.name}{where} GROUP BY {", ".join(keys)}) s'

    # ---- the query ------------------------------------------------------
    def query(self, seed, index):
        rng = random.Random(f'qgen-query/{seed}/{index}')
        settings = self.settings(rng)
        r = rng.random()
        prepared = cursor = None
        if r < 0.06:
            sql, tols = self.lateral(rng)
        else:
            ctx = Ctx(self, rng)
            frm = self.from_clause(ctx)
            if r < 0.14 and ctx.fact:
                # A parameter: PREPARE ... EXECUTE with a generic plan.
                ref, c = rng.choice([(r_, c_) for r_, c_ in ctx.cols])
                prepared = (TYPES[c.type]['sql'], c.literal(rng))
                ctx.param = f'{ref} {rng.choice(["<", ">=", "<>", "IS DISTINCT FROM"])} $1'
            elif r < 0.2:
                cursor = rng.choice(['NO SCROLL', 'SCROLL'])
            sql, tols = self.select(ctx, frm)
        if prepared:
            settings.append('SET plan_cache_mode = force_generic_plan')
        else:
            settings.append('RESET plan_cache_mode')
        return Query(index, sql, tols, settings, prepared, cursor)

    def group_keys(self, ctx, nkeys):
        rng = ctx.rng
        keys = []               # [sql, visible, type]
        for _ in range(nkeys):
            if rng.random() < 0.02:
                keys.append([rng.choice(['(1 + 6)', 'COALESCE(NULL::int4, NULL)', "(DATE '2000-01-01' + 0)",
                                         '(true AND true)']), rng.random() < 0.5, 'int4'])
                continue
            for _ in range(30):
                e = ctx.pick()
                if rng.random() < 0.45:
                    e2 = self.transform(ctx, e, 0)
                    if e2 is not None:
                        e = e2
                if e.type not in self.types:
                    continue
                if rng.random() >= TYPES[e.type]['key']:
                    continue
                if e.risky and rng.random() >= 0.05:
                    continue
                keys.append([e.sql, rng.random() >= 0.08, e.type])
                break
        return keys

    def select(self, ctx, frm, nkeys=None, outer_refs=None, having_p=None):
        """A SELECT ... GROUP BY over frm: (sql, tolerances of its columns)."""
        rng = ctx.rng
        if nkeys is None:
            nkeys = rng.choices([0, 1, 2, 3, 5, 8], [0.15, 0.38, 0.3, 0.13, 0.03, 0.01])[0]
        keys = self.group_keys(ctx, nkeys)
        outputs = []            # (sql, tolerance or None)
        # Float keys: 0 and -0 are one group, shown as either (whichever row
        # came first), so they compare as floats.
        # Interval keys: equal spans are one group, shown as any of its rows,
        # so they compare by span.
        for k in keys:
            if k[1]:
                outputs.append((iv_span(k[0]) if k[2] == 'interval' else
                                f'trim_scale({k[0]})' if k[2] in BY_VALUE else k[0],
                                (0.0, 0.0) if k[2] in FLOATS else None))
        if ctx.fd_ok and keys and rng.random() < 0.04:
            # A column allowed only by a functional dependency (GROUP BY d.id).
            keys.append(['d.id', True, 'int4'])
            outputs.append(('d.id', None))
            extra = [(r, c) for r, c in ctx.cols if r.startswith('d.')]
            if extra:
                r, c = rng.choice(extra)
                outputs.append((r, (0.0, 0.0) if c.type in FLOATS else None))
        naggs = rng.choices([1, 2, 3, 4, 5, 6, 12], [0.25, 0.25, 0.2, 0.14, 0.1, 0.05, 0.01])[0]
        # ORDER BY every output LIMIT n needs outputs that ORDER BY cannot tie
        # unless their text is equal: not an interval ('-298 days' and
        # '-8 mons -58 days' sort as equals, so which of them makes the LIMIT
        # depends on the groups' order; found by qgen seed 101001 q20).
        orderable = True
        for _ in range(naggs):
            sql, rtype, tol = self.aggregate(ctx)
            outputs.append((sql, tol))
            orderable = orderable and rtype != 'interval'
            # Nor a numeric result over a numeric without a scale: equal
            # values of different groups may show different display scales
            # (0, 0.0, 0.00), and ORDER BY ties them (seed 200017 q691).
            orderable = orderable and not (rtype == 'numeric' and 'numeric_free' in sql
                                           and not sql.startswith('trim_scale('))
            if rng.random() < 0.03:
                outputs.append((sql, tol))          # the same aggregate twice
        exact = all(t is None for _, t in outputs) and orderable
        if keys and rng.random() < 0.03:
            outputs.append(('count(*) OVER ()', None))   # a window over the groups
        rng.shuffle(outputs)
        sel = ', '.join(f'{s} AS o{i + 1}' for i, (s, _) in enumerate(outputs))
        distinct = 'DISTINCT ' if rng.random() < 0.02 else ''
        if not orderable:
            # SELECT DISTINCT keeps one of the rows equal by span ('-1 days',
            # '-24:00:00') in whichever representation came first (seed 41
            # q1910): no DISTINCT over interval results.
            distinct = ''
        q = f'SELECT {distinct}{sel}\n  FROM {frm}'
        conds = []
        if rng.random() < 0.5:
            conds.append(self.pred(ctx))
        if ctx.param:
            conds.append(ctx.param)
        if outer_refs:
            conds.append(outer_refs)
        if ctx.fact and rng.random() < 0.06:
            conds.append(self.subquery_pred(ctx))
        if rng.random() < 0.02 and ctx.fact:
            conds.append(f'{ctx.fact[0]}id < 0')        # no input rows at all
        if conds:
            q += '\n WHERE ' + ' AND '.join(conds)
        if keys:
            pos = {s: i + 1 for i, (s, _) in enumerate(outputs)}
            items = []
            for s, visible, _ in keys:
                if visible and s in pos and rng.random() < 0.5:
                    items.append(str(pos[s]))
                else:
                    items.append(s)
            if rng.random() < 0.015 and len(items) >= 2 and 'd.id' not in items:
                q += f'\n GROUP BY ROLLUP ({", ".join(items)})'   # not offloaded
            else:
                q += '\n GROUP BY ' + ', '.join(items)
        if rng.random() < (having_p if having_p is not None else (0.25 if keys else 0.1)):
            q += f'\nHAVING {self.having(ctx)}'
        counts = [i for i, (s, _) in enumerate(outputs)
                  if s.startswith('count(') and 'DISTINCT' not in s and ' OVER ' not in s]
        if rng.random() < 0.15 and outputs:
            if exact and counts and keys and rng.random() < 0.4:
                # A count first, then every output (the device orders the
                # groups by the count and the keys that order; PostgreSQL
                # sorts the rest), LIMIT n: the top groups by count.
                c = rng.choice(counts)
                order = ', '.join([f'{c + 1}{rng.choice(["", " DESC"])}'] +
                                  [str(i + 1) for i in range(len(outputs)) if i != c])
                q += f'\n ORDER BY {order} LIMIT {rng.choice([1, 3, 10, 100])}'
            elif exact and rng.random() < 0.5:
                order = ', '.join(str(i + 1) for i in range(len(outputs)))
                q += f'\n ORDER BY {order} LIMIT {rng.choice([1, 10, 100])}'
            else:
                q += f'\n ORDER BY {rng.randint(1, len(outputs))}{rng.choice(["", " DESC"])}'
        return q, [t for _, t in outputs]

    def subquery_pred(self, ctx):
        """A WHERE condition with a subquery (a semi-join or an InitPlan)."""
        rng = ctx.rng
        prefix, fact = ctx.fact
        d = self.schema.dim
        if rng.random() < 0.5:
            inner = Ctx(self, rng)
            inner.add('', d)
            return (f'{prefix}fk {rng.choice(["IN", "NOT IN"])} '
                    f'(SELECT id FROM {d.name} WHERE {self.pred(inner)})')
        ints = [c for c in fact.columns if c.family == 'int']
        if not ints:
            return 'true'
        c = rng.choice(ints)
        return f'{prefix}{c.name} >= (SELECT avg({c.name}) FROM {fact.name})'

    def lateral(self, rng):
        """Aggregation under a nested loop: rescanned with a new parameter per outer row."""
        s = self.schema
        fact = min(s.facts, key=lambda t: t.rows)
        outer_n = rng.choice([1, 3, 10, 30])
        ctx = Ctx(self, rng)
        ctx.add('t.', fact)
        ctx.nrows = fact.rows
        ctx.fact = ('t.', fact)
        if rng.random() < 0.3:
            # A correlated scalar subquery: one aggregate, no GROUP BY.
            sql, rtype, tol = self.aggregate(ctx)
            return (f'SELECT s.id AS o1, (SELECT {sql} FROM {fact.name} t WHERE t.fk = s.id) AS o2\n'
                    f'  FROM {s.dim.name} s WHERE s.id <= {outer_n}'), [None, tol]
        inner, tols = self.select(ctx, f'{fact.name} t',
                                  nkeys=rng.choices([0, 1, 2], [0.5, 0.35, 0.15])[0],
                                  outer_refs=f't.fk {rng.choice(["=", "<="])} s.id', having_p=0.1)
        join = rng.choice(['CROSS JOIN LATERAL', 'LEFT JOIN LATERAL'])
        on = ' ON true' if join.startswith('LEFT') else ''
        return (f'SELECT s.id AS o0, l.*\n  FROM (SELECT id FROM {s.dim.name} WHERE id <= {outer_n}) s\n'
                f'  {join} ({inner}) l{on}'), [None] + tols

    def having(self, ctx):
        rng = ctx.rng
        r = rng.random()
        if r < 0.3:
            return f'count(*) > {rng.choice([0, 1, 2, 5, 100])}'
        if r < 0.5:
            sql, _, _ = self.aggregate(ctx)
            return f'{sql} IS NOT NULL'
        if r < 0.8:
            e = ctx.pick(types=[t for t in self.types if t in ORDERED and t in _MINMAX])
            if e is not None and ('min' in self.aggs or 'max' in self.aggs):
                fn = rng.choice([a for a in ('min', 'max') if a in self.aggs])
                return f'{fn}({e.sql}) {rng.choice(["<", ">=", "<>"])} {e.col.literal(rng)}'
        if r < 0.85 and ctx.fact:
            return f'count(*) > (SELECT count(*) FROM {self.schema.dim.name}) / {rng.choice([10, 1000])}'
        if r < 0.9 and 'bool_or' in self.aggs:
            e = ctx.pick(types=['bool'])
            if e is not None:
                return f'{rng.choice(["", "NOT "])}bool_or({e.sql})'
        return f'(count(*) > 1 OR {self.having(ctx)})' if rng.random() < 0.3 else 'count(*) >= 1'

    @staticmethod
    def settings(rng):
        s = []
        par = rng.random() < 0.25
        for g, v in (('parallel_setup_cost', '0'), ('parallel_tuple_cost', '0'),
                     ('min_parallel_table_scan_size', '0')):
            s.append(f'SET {g} = {v}' if par else f'RESET {g}')
        s.append('SET parallel_leader_participation = off' if par and rng.random() < 0.2
                 else 'RESET parallel_leader_participation')
        s.append(f'SET gpugb.stride_rows = {rng.choice([1024, 5000, 65536])}' if rng.random() < 0.2
                 else 'RESET gpugb.stride_rows')
        s.append('SET gpugb.parallel = off' if rng.random() < 0.1 else 'RESET gpugb.parallel')
        s.append('SET enable_hashagg = off' if rng.random() < 0.1 else 'RESET enable_hashagg')
        return s


class Query:
    """One generated query and how it runs: plainly, prepared (PREPARE, then
    EXECUTE twice with a generic plan, the second time reusing it; the result
    is every row twice), or through a cursor (FETCH 1, then FETCH ALL, and for
    a SCROLL cursor FETCH BACKWARD ALL: every row twice)."""

    def __init__(self, index, sql, tols, settings, prepared=None, cursor=None):
        self.index = index
        self.sql = sql
        self.tols = tols          # per output column: None (exact) or (rel, abs)
        self.settings = settings
        self.prepared = prepared  # (parameter type, value) for PREPARE/EXECUTE, or None
        self.cursor = cursor      # None, 'NO SCROLL' or 'SCROLL'

    def settings_sql(self):
        return ''.join(s + ';\n' for s in self.settings)

    def prepare_sql(self):
        if self.prepared:
            return f'PREPARE qgen_p({self.prepared[0]}) AS\n{self.sql};\n'
        if self.cursor:
            return 'BEGIN;\n'
        return ''

    def run_sql(self, explain=False):
        """The statements that run the query (psql script); with explain,
        EXPLAIN for its plan."""
        ex = 'EXPLAIN (COSTS OFF) ' if explain else ''
        if self.prepared:
            execute = f'EXECUTE qgen_p({self.prepared[1]});\n'
            return ex + execute if explain else execute + execute
        if self.cursor:
            declare = f'DECLARE qgen_c {self.cursor} CURSOR FOR\n{self.sql};\n'
            if explain:
                return ex + declare
            back = ('\\if :ERROR\n\\else\nFETCH BACKWARD ALL FROM qgen_c;\n\\endif\n'
                    if self.cursor == 'SCROLL' else '')
            return (declare + 'FETCH 1 FROM qgen_c;\n\\if :ERROR\n\\else\nFETCH ALL FROM qgen_c;\n' +
                    back + '\\endif\n')
        return f'{ex}{self.sql};\n'

    def deallocate_sql(self):
        if self.prepared:
            return 'DEALLOCATE qgen_p;\n'
        if self.cursor:
            return 'ROLLBACK;\n'
        return ''

    def text(self):
        """The query as a psql script (for reports and reproducers)."""
        if self.prepared:
            return (self.settings_sql() + self.prepare_sql() +
                    f'EXECUTE qgen_p({self.prepared[1]});\nDEALLOCATE qgen_p;')
        return self.settings_sql() + self.prepare_sql() + self.run_sql() + self.deallocate_sql()


# --------------------------------------------------------------------------
# Running psql and parsing its output.
# --------------------------------------------------------------------------
MARK = '@@qgen:'
NULL_MARK = '@NULL@'


class Run:
    """One execution of one query: rows or an error."""

    def __init__(self):
        self.text = ''            # the rows, as psql printed them (CSV)
        self.error = None
        self.sqlstate = None
        self.done = False


class Outcome:
    def __init__(self, q):
        self.q = q
        self.off = None
        self.on = None
        self.retry = None         # gpugb on, require_gpu off, after a run-time fallback
        self.unlimited = None     # gpugb off without the LIMIT, after an error of gpugb on only
        self.plan = []
        self.stats0 = None
        self.stats1 = None
        self.crashed = False


class Runner:
    def __init__(self, args):
        self.args = args
        self.db = args.db
        self.session_sql = ''

    def psql(self, script, db=None, timeout=None):
        with tempfile.NamedTemporaryFile('w', suffix='.sql', prefix='qgen-', delete=False) as f:
            f.write(script)
            path = f.name
        try:
            cmd = [self.args.psql, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=0',
                   '-d', db or self.db, '-f', path]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout, encoding='utf-8', errors='replace')
            return p.returncode, p.stdout, p.stderr
        finally:
            os.unlink(path)

    def check(self, script, db=None):
        rc, out, err = self.psql('\\set ON_ERROR_STOP 1\n' + script, db=db)
        if rc != 0:
            sys.stderr.write(f'qgen: psql failed (rc {rc}):\n{err}')
            sys.exit(2)
        return out

    def wait_ready(self, limit=120):
        t0 = time.time()
        while time.time() - t0 < limit:
            rc, out, _ = self.psql('SELECT 1;\n')
            if rc == 0 and out.strip() == '1':
                return True
            time.sleep(1)
        return False

    @staticmethod
    def end_marks(tag):
        return (f'\\echo {MARK}end:{tag} :ERROR :SQLSTATE\n'
                f'\\if :ERROR\n\\echo {MARK}err :LAST_ERROR_MESSAGE\n\\endif\n')

    def query_script(self, q, retry=False):
        s = [q.settings_sql()]
        if retry == 'unlimited':
            s.append(f'SET gpugb.enabled = off;\n{q.prepare_sql()}'
                     f'\\echo {MARK}unlimited:{q.index}\n{q.run_sql()}')
            s.append(self.end_marks('unlimited'))
            s.append(f'{q.deallocate_sql()}SET gpugb.enabled = on;\n')
            return ''.join(s)
        if retry:
            s.append(f'SET gpugb.enabled = on;\nSET gpugb.require_gpu = off;\n{q.prepare_sql()}'
                     f'\\echo {MARK}retry:{q.index}\n{q.run_sql()}')
            s.append(self.end_marks('retry'))
            s.append(f'{q.deallocate_sql()}SET gpugb.require_gpu = on;\n')
            return ''.join(s)
        s.append(f'SET gpugb.enabled = off;\n{q.prepare_sql()}\\echo {MARK}off:{q.index}\n{q.run_sql()}')
        s.append(self.end_marks('off'))
        s.append(q.deallocate_sql())
        s.append(f'SET gpugb.enabled = on;\n{q.prepare_sql()}\\echo {MARK}plan:{q.index}\n'
                 f'{q.run_sql(explain=True)}')
        s.append(f'\\echo {MARK}stats0:{q.index}\n'
                 'SELECT gpu_runs, fallbacks FROM gpugb_backend_stats();\n')
        s.append(f'\\echo {MARK}on:{q.index}\n{q.run_sql()}')
        s.append(self.end_marks('on'))
        s.append(q.deallocate_sql())
        s.append(f'\\echo {MARK}stats1:{q.index}\n'
                 'SELECT s.gpu_runs, s.fallbacks, '
                 "format('%s device bytes, %s pinned bytes, %s streams, %s handles', "
                 'm.device_bytes, m.pinned_bytes, m.streams, m.handles), '
                 'm.device_bytes + m.pinned_bytes + m.streams + m.handles '
                 'FROM gpugb_backend_stats() s, gpugb_memory_in_use() m;\n')
        return ''.join(s)

    def run_batch(self, queries, retry=False):
        """Runs queries in one session; returns {index: Outcome} (missing: not reached)."""
        script = self.session_sql + ''.join(self.query_script(q, retry) for q in queries)
        timeout = self.args.batch_timeout
        try:
            rc, out, err = self.psql(script, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode('utf-8', 'replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
            rc, err = -1, f'psql timed out after {timeout} s'
        return self.parse(out, {q.index: q for q in queries}), rc, err

    def decline_reasons(self, queries):
        """{query index: why the planner did not use GpuGroupAgg} from gpugb's
        DEBUG1 message (psql writes it and \\warn's markers to stderr in order)."""
        script = [self.session_sql, 'SET client_min_messages = debug1;\n']
        for q in queries:
            script.append(f'{q.settings_sql()}SET gpugb.enabled = on;\n{q.prepare_sql()}'
                          f'\\warn {MARK}decl:{q.index}\n{q.run_sql(explain=True)}{q.deallocate_sql()}')
        try:
            _, _, err = self.psql(''.join(script), timeout=self.args.batch_timeout)
        except subprocess.TimeoutExpired:
            return {}
        reasons = {}
        idx = None
        for line in err.split('\n'):
            if line.startswith(MARK + 'decl:'):
                idx = int(line[len(MARK) + 5:])
            elif idx is not None and idx not in reasons and 'not offloaded: ' in line:
                reasons[idx] = line.split('not offloaded: ', 1)[1].strip()
        return reasons

    @staticmethod
    def parse(out, qmap):
        """psql's output -> {query index: Outcome}.  Each marker line starts a
        section; a result's rows are the text up to the next marker."""
        res = {}
        run = None
        last_run = None
        for chunk in ('\n' + out).split('\n' + MARK)[1:]:
            head, _, body = chunk.partition('\n')
            tag, _, rest = head.partition(':')
            if head.startswith('err '):
                if last_run is not None:
                    last_run.error = head[4:]
                continue
            if tag == 'end':
                parts = rest.split(' ')
                if run is not None:
                    run.done = True
                    run.sqlstate = parts[2] if len(parts) > 2 else None
                    if len(parts) > 1 and parts[1] == 'true':
                        run.error = '(unknown error)'
                    last_run = run
                run = None
                continue
            idx = int(rest)
            o = res.get(idx)
            if o is None:
                o = res[idx] = Outcome(qmap[idx])
            run = None
            if tag in ('off', 'on', 'retry', 'unlimited'):
                run = Run()
                run.text = body
                setattr(o, tag, run)
            elif tag == 'plan':
                o.plan = body.split('\n')
            elif tag in ('stats0', 'stats1') and body.strip():
                setattr(o, tag, next(csv.reader([body.strip().split('\n')[0]])))
        return res


# --------------------------------------------------------------------------
# Comparing results.
# --------------------------------------------------------------------------
def parse_rows(text, ncols):
    """psql's CSV output -> rows (lists of text; NULL is NULL_MARK)."""
    rows = list(csv.reader(io.StringIO(text)))
    if ncols == 1:
        rows = [r or [''] for r in rows]     # a row of one empty string
    return rows


def float_value(f):
    return None if f == NULL_MARK else float(f)


def float_sort_key(f):
    v = float_value(f)
    if v is None:
        return (0, 0.0)
    if v != v:
        return (2, 0.0)
    return (1, v)


def sort_rows(rows, exact_idx, float_idx):
    """Sorts by the exact columns (as text), then by the float ones (as numbers)."""
    ek = (lambda r: ()) if not exact_idx else (
        (lambda r, i=exact_idx[0]: r[i]) if len(exact_idx) == 1 else operator.itemgetter(*exact_idx))
    rows.sort(key=ek)
    if not float_idx:
        return rows
    out = []
    i = 0
    while i < len(rows):
        j = i + 1
        k = ek(rows[i])
        while j < len(rows) and ek(rows[j]) == k:
            j += 1
        if j - i > 1:
            out.extend(sorted(rows[i:j], key=lambda r: [float_sort_key(r[x]) for x in float_idx]))
        else:
            out.append(rows[i])
        i = j
    return out


def floats_close(a, b, tol):
    if a is None or b is None:
        return a is None and b is None
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    rel, ab = tol
    return abs(a - b) <= rel * max(abs(a), abs(b)) + ab


def fmt_row(row):
    return '(' + ', '.join('NULL' if v == NULL_MARK else v for v in row) + ')'


def rows_match(ra, rb, exact_idx, float_idx, tols):
    return (len(ra) == len(rb) == len(tols) and all(ra[j] == rb[j] for j in exact_idx) and
            all(floats_close(float_value(ra[j]), float_value(rb[j]), tols[j]) for j in float_idx))


def compare(off_text, on_text, tols):
    """None if the results are equal, else a description with the first differing rows."""
    if off_text == on_text:
        return None
    a_lines = off_text.split('\n')
    b_lines = on_text.split('\n')
    if len(a_lines) == len(b_lines) and sorted(a_lines) == sorted(b_lines):
        return None            # the same text in another order: the common case, and fast
    ncols = len(tols)
    exact_idx = [i for i, t in enumerate(tols) if t is None]
    # Exact float columns (min, max, keys) first: rows whose exact columns tie
    # sort the same way on both sides.
    float_idx = sorted((i for i, t in enumerate(tols) if t is not None), key=lambda i: tols[i] != (0.0, 0.0))
    a = sort_rows(parse_rows(off_text, ncols), exact_idx, float_idx)
    b = sort_rows(parse_rows(on_text, ncols), exact_idx, float_idx)

    def ek(r):
        return tuple(r[j] for j in exact_idx if j < len(r))

    # Walk both sides in runs of equal exact columns; inside a run, match
    # each row with the first unmatched close row of the other side.
    diffs = []                 # (off row or None, on row or None)
    i = j = 0
    while i < len(a) or j < len(b):
        ka = ek(a[i]) if i < len(a) else None
        kb = ek(b[j]) if j < len(b) else None
        if kb is None or (ka is not None and ka < kb):
            diffs.append((a[i], None))
            i += 1
            continue
        if ka is None or kb < ka:
            diffs.append((None, b[j]))
            j += 1
            continue
        i2, j2 = i, j
        while i2 < len(a) and ek(a[i2]) == ka:
            i2 += 1
        while j2 < len(b) and ek(b[j2]) == kb:
            j2 += 1
        run_a, run_b = a[i:i2], b[j:j2]
        if len(run_a) == len(run_b) == 1:
            if not rows_match(run_a[0], run_b[0], exact_idx, float_idx, tols):
                diffs.append((run_a[0], run_b[0]))
        else:
            # Rows sorted alike usually pair up in place; the rest (whose order
            # a float within the tolerance flipped) are matched pairwise.
            rest_a, left = [], []
            fk = lambda r: [float_sort_key(r[x]) for x in float_idx]   # noqa: E731
            p = q = 0
            while p < len(run_a) and q < len(run_b):
                if rows_match(run_a[p], run_b[q], exact_idx, float_idx, tols):
                    p += 1
                    q += 1
                elif fk(run_a[p]) <= fk(run_b[q]):
                    rest_a.append(run_a[p])
                    p += 1
                else:
                    left.append(run_b[q])
                    q += 1
            rest_a.extend(run_a[p:])
            left.extend(run_b[q:])
            if len(rest_a) * len(left) > 4000000:
                diffs.extend((ra, None) for ra in rest_a)
                rest_a = []
            for ra in rest_a:
                for n, rb in enumerate(left):
                    if rows_match(ra, rb, exact_idx, float_idx, tols):
                        del left[n]
                        break
                else:
                    diffs.append((ra, None))
            diffs.extend((None, rb) for rb in left)
        i, j = i2, j2
    if not diffs and len(a) == len(b):
        return None
    problems = []
    if len(a) != len(b):
        problems.append(f'{len(a)} rows with gpugb off, {len(b)} with gpugb on')
    if diffs:
        n_off = sum(1 for ra, rb in diffs if ra is not None and rb is None)
        n_on = sum(1 for ra, rb in diffs if ra is None and rb is not None)
        n_pair = len(diffs) - n_off - n_on
        problems.append(f'{n_pair} rows differ in a float column beyond the tolerance, {n_off} rows '
                        f'only with gpugb off, {n_on} only with gpugb on (matched by the exact '
                        f'columns); the first ones:')
        for ra, rb in diffs[:6]:
            problems.append(f'  off {fmt_row(ra) if ra is not None else "(no row)"}')
            problems.append(f'  on  {fmt_row(rb) if rb is not None else "(no row)"}')
    return '\n'.join(problems)


# --------------------------------------------------------------------------
# Main.
# --------------------------------------------------------------------------
def parse_args(argv):
    p = argparse.ArgumentParser(
        description='Differential random GROUP BY queries: gpugb on vs PostgreSQL.')
    p.add_argument('--seed', type=int, default=1, help='random seed (default 1)')
    p.add_argument('--queries', type=int, default=500, help='number of queries (default 500)')
    p.add_argument('--mode', choices=['emulator', 'gpu'], default='emulator',
                   help='emulator: gpugb.emulate_device = on; gpu: the real device')
    p.add_argument('--scale', type=float, default=1.0,
                   help='table size factor (default 1: tables of about 1k to 300k rows)')
    p.add_argument('--types', default=','.join(DEFAULT_TYPES),
                   help='column types to use, comma-separated (default: the ones gpugb offloads); '
                        'known: ' + ','.join(TYPES))
    p.add_argument('--aggs', default=','.join(DEFAULT_AGGS),
                   help='aggregates to use (default: the ones gpugb offloads); known: ' + ','.join(AGGS))
    p.add_argument('--db', default='gpugb_qgen', help='database (created if missing; default gpugb_qgen)')
    p.add_argument('--save-mismatches', metavar='DIR',
                   help='write each mismatching query as a reproducible SQL file into DIR')
    p.add_argument('--only', metavar='I[,J...]',
                   help='run only these query numbers (as printed in a report)')
    p.add_argument('--batch', type=int, default=100, help='queries per psql session (default 100)')
    p.add_argument('--batch-timeout', type=int, default=1800, help='seconds per batch (default 1800)')
    p.add_argument('--statement-timeout', default='300s', help='statement_timeout (default 300s)')
    p.add_argument('--allow-fallback', action='store_true',
                   help='a run-time fallback for any reason is no failure (default: only the '
                        'float overflow guard is expected)')
    p.add_argument('--regen', action='store_true', help='recreate the tables even if they are current')
    p.add_argument('--print-schema', action='store_true', help='describe the generated tables')
    p.add_argument('--print-queries', action='store_true', help='print every query and stop')
    p.add_argument('--max-reports', type=int, default=10,
                   help='mismatches printed in full (default 10; all are counted)')
    p.add_argument('--strategy', choices=['auto', 'global_hash', 'shared_hash', 'sort', 'partition', 'private_hash'],
                   help='SET gpugb.strategy for every query (default: the server\'s setting)')
    p.add_argument('--psql', default='psql', help='psql program')
    p.add_argument('-v', '--verbose', action='store_true')
    args = p.parse_args(argv)
    args.types = [t.strip() for t in args.types.split(',') if t.strip()]
    args.aggs = [a.strip() for a in args.aggs.split(',') if a.strip()]
    bad = [t for t in args.types if t not in TYPES] + [a for a in args.aggs if a not in AGGS]
    if bad:
        p.error('unknown type or aggregate: ' + ', '.join(bad))
    if not args.types or not args.aggs:
        p.error('--types and --aggs need at least one entry')
    return args


def reproducer(args, schema, session, q, problem):
    mode_sets = 'SET gpugb.emulate_device = on;\n' if args.mode == 'emulator' else ''
    body = q.text()[len(q.settings_sql()):] + '\n'
    lines = [f'-- qgen mismatch: seed {args.seed}, query {q.index}, mode {args.mode}, '
             f'scale {args.scale}, types {",".join(args.types)}, aggs {",".join(args.aggs)}'
             + (f', strategy {args.strategy}' if args.strategy else ''),
             f'-- rerun: {rerun_command(args, q.index)}',
             '--', *('-- ' + l for l in problem.split('\n')), '',
             '-- The tables (generated with setseed(): the same data on the same PostgreSQL).',
             schema.setup_sql(), '-- The session.',
             ''.join(l for l in session.splitlines(True) if not l.startswith('\\pset')) + q.settings_sql(),
             '-- PostgreSQL:', 'SET gpugb.enabled = off;', body,
             '-- gpugb:', 'SET gpugb.enabled = on;', 'SET gpugb.force = on;',
             'SET gpugb.require_gpu = on;', mode_sets + body]
    return '\n'.join(lines)


def rerun_command(args, index):
    cmd = f'python3 test/qgen/qgen.py --mode {args.mode} --seed {args.seed} --scale {args.scale}'
    if args.types != DEFAULT_TYPES:
        cmd += f' --types {",".join(args.types)}'
    if args.aggs != DEFAULT_AGGS:
        cmd += f' --aggs {shlex.quote(",".join(args.aggs))}'
    if args.strategy:
        cmd += f' --strategy {args.strategy}'
    return cmd + f' --only {index}'


def main(argv):
    args = parse_args(argv)
    t_start = time.time()
    schema = Schema(args.seed, args.scale, args.types)
    gen = QueryGen(schema, args.types, args.aggs)
    if args.only:
        indices = [int(x) for x in args.only.split(',')]
    else:
        indices = list(range(1, args.queries + 1))
    queries = [gen.query(args.seed, i) for i in indices]
    if args.print_schema:
        print(schema.describe())
    if args.print_queries:
        for q in queries:
            print(f'-- query {q.index}\n{q.text()}\n')
        return 0

    runner = Runner(args)
    # The database, the extension, the tables (kept if current).
    if runner.check(f"SELECT count(*) FROM pg_database WHERE datname = {q_lit(args.db)};\n",
                    db='postgres').strip() != '1':
        runner.check(f'CREATE DATABASE "{args.db}";\n', db='postgres')
    setup = schema.setup_sql()
    spec = hashlib.sha1(setup.encode()).hexdigest()
    current = runner.check(
        "SET client_min_messages = warning;\nLOAD 'gpugb';\nCREATE EXTENSION IF NOT EXISTS gpugb;\n"
        'CREATE TABLE IF NOT EXISTS qgen_meta (spec text);\nSELECT spec FROM qgen_meta;\n').strip()
    if current != spec or args.regen:
        t0 = time.time()
        runner.check('SET client_min_messages = warning;\n' + setup +
                     f'DELETE FROM qgen_meta;\nINSERT INTO qgen_meta VALUES ({q_lit(spec)});\n')
        print(f'qgen: tables created in {time.time() - t0:.1f} s '
              f'({", ".join(f"{t.name} {t.rows}" for t in schema.tables)} rows)', flush=True)
    device = runner.check("LOAD 'gpugb';\nSELECT gpugb_device_info();\n").strip().split('\n')[-1]

    if args.mode == 'gpu' and device.startswith('no device'):
        sys.stderr.write(f'qgen: --mode gpu, but gpugb has no GPU: {device}\n')
        return 2
    tz = random.Random(f'qgen-tz/{args.seed}').choice(TIMEZONES)
    session = (f"\\pset format csv\n\\pset null {NULL_MARK}\n\\pset tuples_only on\n"
               f"SET client_min_messages = warning;\nLOAD 'gpugb';\n"
               f"SET TimeZone = {q_lit(tz)};\nSET DateStyle = 'ISO, YMD';\n"
               f"SET IntervalStyle = 'postgres';\nSET extra_float_digits = 1;\n"
               f"SET statement_timeout = {q_lit(args.statement_timeout)};\n"
               "SET gpugb.force = on;\nSET gpugb.require_gpu = on;\n"
               f"SET gpugb.emulate_device = {'on' if args.mode == 'emulator' else 'off'};\n"
               + (f"SET gpugb.strategy = {args.strategy};\n" if args.strategy else ''))
    runner.session_sql = session
    print(f'qgen: mode {args.mode}, seed {args.seed}, scale {args.scale}, {len(queries)} queries, '
          f'TimeZone {tz}, ' + (f'strategy {args.strategy}, ' if args.strategy else '') +
          f'device: {device}', flush=True)

    outcomes = {}
    pending = list(queries)
    crashes = 0
    while pending:
        batch = pending[:args.batch]
        res, rc, err = runner.run_batch(batch)
        done = 0
        for q in batch:
            o = res.get(q.index)
            if o is not None and o.stats1 is not None:
                outcomes[q.index] = o
                done += 1
                continue
            # The session ended inside this query (a crash, a lost connection
            # or a timeout): the query is a failure; the rest run again.
            if o is None:
                o = Outcome(q)
            o.crashed = True
            o.crash_info = f'psql exit status {rc}; stderr:\n' + '\n'.join(err.strip().split('\n')[-8:])
            outcomes[q.index] = o
            done += 1
            crashes += 1
            if not runner.wait_ready():
                sys.stderr.write('qgen: the server did not come back\n')
                return 2
            break
        pending = pending[done:]
        if args.verbose or len(queries) > args.batch:
            print(f'qgen: {len(outcomes)}/{len(queries)} queries run, {time.time() - t_start:.0f} s',
                  flush=True)

    # Run-time fallbacks: run again with require_gpu off, which PostgreSQL's
    # plan under the GpuGroupAgg node answers.
    fell_back = [o for o in outcomes.values()
                 if o.on is not None and o.on.error and o.on.error.startswith(REQUIRE_GPU_ERROR)]
    if fell_back:
        res, rc, err = runner.run_batch([o.q for o in fell_back], retry=True)
        for o in fell_back:
            r = res.get(o.q.index)
            o.retry = r.retry if r is not None else None

    # An error with gpugb on only, in a query whose ORDER BY ... LIMIT let PostgreSQL's
    # plan stop reading early (a GroupAggregate under an Incremental Sort, seed 504901
    # q417): a plan that reads every row, as GpuGroupAgg and PostgreSQL's own
    # HashAggregate do, meets rows that raise.  Run gpugb off without the LIMIT: the
    # same error there is the data's, not gpugb's.
    erred = [o for o in outcomes.values()
             if o.on is not None and o.on.error and not o.on.error.startswith(REQUIRE_GPU_ERROR)
             and o.off is not None and o.off.done and not o.off.error
             and LIMIT_TAIL.search(o.q.sql)]
    if erred:
        unlimited = []
        for o in erred:
            u = copy.copy(o.q)
            u.sql = LIMIT_TAIL.sub('', o.q.sql)
            u.cursor = None
            unlimited.append(u)
        res, rc, err = runner.run_batch(unlimited, retry='unlimited')
        for o in erred:
            r = res.get(o.q.index)
            o.unlimited = r.unlimited if r is not None else None

    # Verdicts.
    n_gpu = n_declined = n_both_err = n_not_run = 0
    fallback_reasons = collections.Counter()
    both_errors = collections.Counter()
    declined = []
    mismatches = []
    for idx in indices:
        o = outcomes[idx]
        q = o.q
        problem = None
        if o.crashed:
            problem = 'the session ended during this query (server crash, lost connection or timeout): ' + \
                o.crash_info
        else:
            planned = any('GpuGroupAgg' in l for l in o.plan)
            try:
                runs = int(o.stats1[0]) - int(o.stats0[0])
            except (TypeError, ValueError, IndexError):
                runs = 0
            on = o.on
            float_order = False
            if on.error and on.error.startswith(REQUIRE_GPU_ERROR):
                reason = on.error[len(REQUIRE_GPU_ERROR):]
                # A float sum near the overflow limit: PostgreSQL's own plans overflow in
                # some orders of rows and not in others (the fallback plan, run by the
                # retry, need not be the parallel plan gpugb off ran).
                float_order = 'comes near the overflow limit' in reason
                fallback_reasons[reason] += 1
                if not (EXPECTED_FALLBACKS.search(reason) or args.allow_fallback):
                    problem = f'unexpected fallback at run time: {on.error}'
                on = o.retry
                if on is None or not on.done:
                    problem = problem or 'the run with gpugb.require_gpu = off did not finish'
            elif not planned and not any(l.strip() for l in o.plan) and on.error and o.off.error:
                pass               # EXPLAIN raised the error too (constant folding): not a decline
            elif not planned:
                n_declined += 1
                declined.append(q)
            elif runs > 0:
                n_gpu += 1
            else:
                n_not_run += 1     # planned, but the node never ran (an error first, no outer rows)
            if o.stats1 is not None and len(o.stats1) > 3 and o.stats1[3] != '0':
                problem = f'gpugb holds memory after the query: {o.stats1[2]}'
            if problem is None:
                off = o.off
                if off.error and on.error:
                    if off.error != on.error and {off.error, on.error} <= ROW_ORDER_ERRORS:
                        # Two of PostgreSQL's own data errors that the scan raises row by row
                        # (seed 202041 q188): which row fails first depends on the plan's row
                        # order, and PostgreSQL's own plans disagree on it (the H200 box's
                        # parallel plan raised one, this machine's the other, gpugb off both
                        # times).  Only errors seen so are listed: gpugb raises some of
                        # PostgreSQL's messages itself (finalize.c), and a wrong one must show.
                        n_both_err += 1
                        both_errors['different errors, evaluation order'] += 1
                    elif off.error != on.error:
                        problem = f'different errors:\n  gpugb off: {off.error}\n  gpugb on:  {on.error}'
                    else:
                        n_both_err += 1
                        both_errors[off.error] += 1
                elif float_order and FLOAT_OVERFLOW in ((off.error or '') + (on.error or '')):
                    n_both_err += 1
                    both_errors['float overflow in one order of rows only'] += 1
                elif off.error:
                    problem = f'gpugb off raised an error, gpugb on did not: {off.error}'
                elif (on.error and o.unlimited is not None and o.unlimited.done and
                      o.unlimited.error == on.error):
                    n_both_err += 1
                    both_errors[f'{on.error} (gpugb off too, once its LIMIT is removed)'] += 1
                elif on.error:
                    problem = f'gpugb on raised an error, gpugb off did not: {on.error}'
                else:
                    problem = compare(off.text, on.text, q.tols)
        if problem is not None:
            mismatches.append((o, problem))

    for n, (o, problem) in enumerate(mismatches):
        q = o.q
        if n < args.max_reports:
            print(f'\nqgen: MISMATCH in query {q.index} (seed {args.seed}, mode {args.mode}):\n'
                  f'{q.text()}\n{problem}\n'
                  f'rerun: {rerun_command(args, q.index)}', flush=True)
        if args.save_mismatches:
            os.makedirs(args.save_mismatches, exist_ok=True)
            path = os.path.join(args.save_mismatches, f'qgen-seed{args.seed}-q{q.index}.sql')
            with open(path, 'w') as f:
                f.write(reproducer(args, schema, session, q, problem))
            if n < args.max_reports:
                print(f'saved: {path}')
    if len(mismatches) > args.max_reports:
        print(f'qgen: ... and {len(mismatches) - args.max_reports} more mismatches')

    if declined:
        reasons = runner.decline_reasons(declined)
        hist = collections.Counter(re.sub(r'\d+', 'N', reasons.get(q.index, '(no message)'))
                                   for q in declined)
        if args.verbose:
            for q in declined:
                print(f'qgen: query {q.index} declined: {reasons.get(q.index, "(no message)")}')
        print('qgen: declined: ' + '; '.join(f'{n}x {r}' for r, n in hist.most_common(8)) +
              ('; ...' if len(hist) > 8 else ''))

    elapsed = time.time() - t_start
    fb = sum(fallback_reasons.values())
    detail = f'qgen: {elapsed:.0f} s; {n_both_err} raised the same error on both sides'
    if both_errors:
        detail += ' (' + '; '.join(f'{n}x {r}' for r, n in both_errors.most_common()) + ')'
    detail += f'; {fb} fell back at run time'
    if fallback_reasons:
        detail += ' (' + '; '.join(f'{n}x {r}' for r, n in fallback_reasons.most_common()) + ')'
    if n_not_run:
        detail += f'; {n_not_run} planned GpuGroupAgg but did not run it'
    if crashes:
        detail += f'; {crashes} sessions ended unexpectedly'
    print(detail)
    print(f'qgen: {len(indices)} queries checked, {n_gpu} on the GPU path, {n_declined} declined, '
          f'{len(mismatches)} mismatches (seed {args.seed})')
    if n_gpu == 0 and len(indices) >= 20:
        print('qgen: no query ran on the GPU path: is gpugb loaded, and the mode right?')
        return 1
    return 1 if mismatches else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
