package differential

import (
	"fmt"
	"strings"
)

// winCtx is the select a window function is generated for; named windows
// go to its WINDOW clause.
type winCtx struct {
	s     *selectStmt
	named []winDef
	// hasSensitive: an order-sensitive function is already in the select
	// list. Two of them with different windows are not deterministic
	// together: identical rows tie in both sorts, and which of them gets
	// which value of each is up to the engine.
	hasSensitive bool
}

// winDef is a window definition as the generator knows it: whether its
// ORDER BY is total (fixes the order of every row), and its keys.
type winDef struct {
	name     string
	total    bool
	nOrder   int
	orderKey *expr // the only ORDER BY key, when there is one
}

// Window functions whose value depends on the order among peers (rows
// equal in the window's ORDER BY) get an ORDER BY that is total: the
// chosen keys followed by every column of every relation in FROM. Rows
// that tie on all of those are identical, so whichever order the engine
// puts them in, the multiset of results is the same.
const (
	insensitive = iota
	sensitive
)

// window draws a window function call of class k, or nil when the scope
// has no columns to order by.
func (g *gen) window(c ectx, k class) *expr {
	w := c.win
	cols := c.sc.qualified()
	if len(cols) == 0 {
		return nil
	}
	ac := c
	ac.winOK, ac.aggOK, ac.depth = false, false, 0
	argOf := func(k class) *expr {
		ac.inAgg = true
		e := g.expr(ac, k, 1)
		ac.inAgg = false
		if len(e.args) == 0 && e.sub == nil && (strings.HasPrefix(e.tmpl, "'") || e.tmpl == "NULL") {
			// lag('a') and the like cannot resolve an unknown type.
			e = mk(repType(k), "CAST($1 AS "+repType(k).sql()+")", e)
		}
		return e
	}
	type fn struct {
		name  string
		sens  int
		t     typ
		tmpl  string // the call before OVER; $1 is the argument
		arg   class
		frame bool // takes a frame
		cast  bool // CAST(... AS double precision) around the whole call
	}
	var fns []fn
	switch k {
	case cInt:
		fns = []fn{
			{"row_number", sensitive, tInt8, "row_number()", cNull, false, false},
			{"rank", insensitive, tInt8, "rank()", cNull, false, false},
			{"dense_rank", insensitive, tInt8, "dense_rank()", cNull, false, false},
			{"ntile", sensitive, tInt4, fmt.Sprintf("ntile(%d)", 1+g.n(4)), cNull, false, false},
			{"count", insensitive, tInt8, "count(*)", cNull, true, false},
			{"count", insensitive, tInt8, "count($1)", cText, true, false},
			{"sum", insensitive, tInt8, "sum($1)", cInt, true, false},
		}
	case cFloat:
		fns = []fn{
			{"percent_rank", insensitive, tFloat8, "percent_rank()", cNull, false, false},
			{"cume_dist", insensitive, tFloat8, "cume_dist()", cNull, false, false},
			{"avg", insensitive, tFloat8, "avg($1)", cInt, true, true},
			{"sum", insensitive, tFloat8, "sum($1)", cFloat, true, false},
			{"avg", insensitive, tFloat8, "avg($1)", cFloat, true, false},
		}
	}
	fns = append(fns,
		fn{"lag", sensitive, tNull, "lag($1)", k, false, false},
		fn{"lead", sensitive, tNull, "lead($1)", k, false, false},
		fn{"lag", sensitive, tNull, fmt.Sprintf("lag($1, %d)", 1+g.n(2)), k, false, false},
		fn{"first_value", sensitive, tNull, "first_value($1)", k, true, false},
		fn{"last_value", sensitive, tNull, "last_value($1)", k, true, false},
		fn{"nth_value", sensitive, tNull, fmt.Sprintf("nth_value($1, %d)", 1+g.n(3)), k, true, false},
	)
	if k != cBool {
		fns = append(fns,
			fn{"min", insensitive, tNull, "min($1)", k, true, false},
			fn{"max", insensitive, tNull, "max($1)", k, true, false})
	}
	f := pick(g, fns)
	if f.sens == sensitive && (!c.sc.total || w.hasSensitive) {
		switch k {
		case cBool:
			return nil
		case cInt:
			f = fns[1] // rank()
		case cFloat:
			f = fns[0] // percent_rank()
		default:
			f = fn{"max", insensitive, tNull, "max($1)", k, true, false}
		}
	}
	var args []*expr
	t := f.t
	if f.arg != cNull {
		a := argOf(f.arg)
		args = append(args, a)
		if t == tNull {
			t = a.t
			if t == tVarchar && (f.name == "min" || f.name == "max") {
				t = tText
			}
		}
		if f.name == "sum" && a.t == tInt8 {
			f.cast = true // sum(bigint) is numeric
		}
	}
	if t == tNull {
		t = repType(k)
	}
	g.tag("window." + f.name)

	// The frame: ROWS frames make any aggregate order-sensitive.
	frame := ""
	if f.frame && g.chance(50) {
		frame = g.frame()
	}
	if strings.HasPrefix(frame, "ROWS") && (!c.sc.total || w.hasSensitive) {
		frame = ""
	}
	sens := f.sens == sensitive || strings.HasPrefix(frame, "ROWS")
	w.hasSensitive = w.hasSensitive || sens
	rangeOffset := strings.HasPrefix(frame, "RANGE") && strings.Contains(frame, "1 ")
	if rangeOffset && sens {
		frame = "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
		rangeOffset = false
	}
	if frame != "" {
		g.tag("window.frame." + strings.ToLower(strings.Fields(frame)[0]))
	}

	var over string
	var overArgs []*expr
	// A named window, now and then, with the frame added in the call.
	if !rangeOffset && g.chance(30) {
		var def *winDef
		for i := range w.named {
			if w.named[i].total || !sens {
				def = &w.named[i]
				break
			}
		}
		needsOrder := strings.HasPrefix(frame, "GROUPS") || strings.HasPrefix(frame, "RANGE")
		if def == nil || needsOrder && def.nOrder == 0 {
			d, spec := g.winSpec(c, sens, false, needsOrder)
			w.named = append(w.named, d)
			w.s.windows = append(w.s.windows, namedWindow{name: d.name, spec: spec})
			def = &w.named[len(w.named)-1]
		}
		g.tag("window.named")
		if frame == "" && g.chance(50) {
			over = " OVER " + def.name
		} else {
			over = " OVER (" + def.name + " " + frame + ")"
		}
	} else {
		_, spec := g.winSpec(c, sens, rangeOffset, strings.HasPrefix(frame, "GROUPS") || strings.HasPrefix(frame, "RANGE"))
		if rangeOffset && !strings.Contains(spec.tmpl, "ORDER BY") {
			frame = ""
		}
		over = " OVER (" + arg(len(args)) + " " + frame + ")"
		overArgs = []*expr{spec}
	}
	call := mk(t, f.tmpl, args...)
	call.tmpl += over
	call.args = append(call.args, overArgs...)
	if f.cast {
		call.tmpl = "CAST(" + call.tmpl + " AS double precision)"
		call.t = tFloat8
		if k == cInt {
			call.tmpl = "CAST(" + strings.TrimSuffix(strings.TrimPrefix(call.tmpl, "CAST("), " AS double precision)") + " AS bigint)"
			call.t = tInt8
		}
	}
	call.win = true
	return call
}

// frame draws a frame clause.
func (g *gen) frame() string {
	return pick(g, []string{
		"ROWS BETWEEN 1 PRECEDING AND CURRENT ROW",
		"ROWS UNBOUNDED PRECEDING",
		"ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING",
		"ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING",
		"ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING",
		"ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
		"RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW",
		"RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
		"RANGE UNBOUNDED PRECEDING",
		"RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
		"RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING",
		"RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING",
		"GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW",
		"GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING",
		"GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
		"GROUPS UNBOUNDED PRECEDING",
	})
}

// winSpec draws PARTITION BY ... ORDER BY ... as an expression. total
// appends every column of the scope to the ORDER BY; oneNumericKey makes
// the ORDER BY a single numeric column (RANGE with an offset); needOrder
// makes sure there is an ORDER BY.
func (g *gen) winSpec(c ectx, total, oneNumericKey, needOrder bool) (winDef, *expr) {
	cols := c.sc.qualified()
	var args []*expr
	var b strings.Builder
	if g.chance(50) {
		b.WriteString("PARTITION BY ")
		for i, n := 0, 1+g.n(2); i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			col := pick(g, cols)
			b.WriteString(arg(len(args)))
			args = append(args, leaf(col.t, col.ref))
		}
		b.WriteString(" ")
	}
	var keys []*expr
	switch {
	case oneNumericKey:
		for _, i := range g.rng.Perm(len(cols)) {
			if cols[i].t.isNumeric() {
				keys = append(keys, leaf(cols[i].t, cols[i].ref))
				break
			}
		}
	default:
		n := g.n(3)
		if needOrder || total {
			n = max(n, 1)
		}
		for i := 0; i < n; i++ {
			col := pick(g, cols)
			keys = append(keys, leaf(col.t, col.ref))
		}
		if total {
			for _, col := range cols {
				keys = append(keys, leaf(col.t, col.ref))
			}
		}

	}
	if len(keys) > 0 {
		b.WriteString("ORDER BY ")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(arg(len(args)))
			args = append(args, k)
			if g.chance(35) {
				b.WriteString(" DESC")
			}
			if g.chance(25) {
				b.WriteString(pick(g, []string{" NULLS FIRST", " NULLS LAST"}))
			}
		}
	}
	d := winDef{name: g.alias("wn"), total: total, nOrder: len(keys)}
	if len(keys) == 1 {
		d.orderKey = keys[0]
	}
	return d, &expr{t: tNull, tmpl: strings.TrimSpace(b.String()), args: args}
}
