package pgcatalog

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// routineDef is what pg_get_functiondef prints of a routine, built in or
// user-defined, in the order PostgreSQL's ruleutils.c prints it.
type routineDef struct {
	procedure bool
	name      string // schema-qualified and quoted
	args      string // pg_get_function_arguments
	result    string // pg_get_function_result
	language  string
	window    bool
	vol       byte // i, s or v
	parallel  byte // s, r or u
	strict    bool
	definer   bool
	leakproof bool
	cost      float64
	rows      float64 // of a set-returning function
	support   string
	config    []string // name=value, the values ", "-separated
	src       string   // the body as a string (prosrc), when sqlBody is ""
	sqlBody   string   // a body in SQL's own syntax: RETURN ..., BEGIN ATOMIC ... END
}

// String is the routine's CREATE OR REPLACE statement, as
// pg_get_functiondef prints it.
func (d *routineDef) String() string {
	var sb strings.Builder
	kind := "FUNCTION"
	if d.procedure {
		kind = "PROCEDURE"
	}
	sb.WriteString("CREATE OR REPLACE " + kind + " " + d.name + "(" + d.args + ")\n")
	if !d.procedure {
		sb.WriteString(" RETURNS " + d.result + "\n")
	}
	sb.WriteString(" LANGUAGE " + sqltypes.QuoteIdent(d.language) + "\n")
	var opts []string
	if d.window {
		opts = append(opts, "WINDOW")
	}
	switch d.vol {
	case 'i':
		opts = append(opts, "IMMUTABLE")
	case 's':
		opts = append(opts, "STABLE")
	}
	switch d.parallel {
	case 's':
		opts = append(opts, "PARALLEL SAFE")
	case 'r':
		opts = append(opts, "PARALLEL RESTRICTED")
	}
	if d.strict {
		opts = append(opts, "STRICT")
	}
	if d.definer {
		opts = append(opts, "SECURITY DEFINER")
	}
	if d.leakproof {
		opts = append(opts, "LEAKPROOF")
	}
	// CREATE FUNCTION's default cost: 1 for C and internal functions,
	// else 100.
	defaultCost := 100.0
	if d.language == "internal" || d.language == "c" {
		defaultCost = 1
	}
	if d.cost != defaultCost {
		opts = append(opts, "COST "+formatG(d.cost))
	}
	if d.rows > 0 && d.rows != 1000 {
		opts = append(opts, "ROWS "+formatG(d.rows))
	}
	if d.support != "" {
		opts = append(opts, "SUPPORT "+d.support)
	}
	if opts != nil {
		sb.WriteString(" " + strings.Join(opts, " ") + "\n")
	}
	for _, c := range d.config {
		name, val, _ := strings.Cut(c, "=")
		vals := strings.Split(val, ", ")
		for i, v := range vals {
			vals[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
		sb.WriteString(" SET " + name + " TO " + strings.Join(vals, ", ") + "\n")
	}
	if d.sqlBody != "" {
		sb.WriteString(d.sqlBody + "\n")
		return sb.String()
	}
	tag := "$" + strings.ToLower(kind)
	for strings.Contains(d.src, tag+"$") {
		tag += "x"
	}
	tag += "$"
	sb.WriteString("AS " + tag + d.src + tag + "\n")
	return sb.String()
}

// formatG prints a float as C's %g does for the costs and row counts
// pg_get_functiondef prints.
func formatG(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	if strings.ContainsAny(s, "e") {
		return s
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// languageNames are pg_language's names of the built-in functions'
// languages.
var languageNames = map[uint32]string{LangInternal: "internal", 13: "c", LangSQL: "sql", LangPLpgSQL: "plpgsql"}

// builtinDef is pg_get_functiondef of a built-in function (not an
// aggregate): PostgreSQL's attributes for one of its functions, zproxy's
// registry's for one of zproxy's own, which PostgreSQL would print as an
// internal function.
func builtinDef(p *pgProc) string {
	d := routineDef{name: "pg_catalog." + sqltypes.QuoteIdent(p.name), args: builtinArgumentsText(p, true),
		result: builtinResult(p), language: "internal", window: p.kind == 'w', vol: p.vol, parallel: 's',
		strict: p.strict, cost: 1, src: p.name}
	if p.retset {
		d.rows = 1000
	}
	if k := p.pg; k != nil {
		d.language = languageNames[k.lang]
		d.parallel, d.leakproof, d.cost, d.rows, d.support = k.parallel, k.leakproof, k.cost, k.rows, k.support
		d.src, d.sqlBody = k.src, k.sqlBody
	}
	return d.String()
}

// builtinArgumentsText is pg_get_function_arguments of a built-in
// function (withDefaults), or pg_get_function_identity_arguments: its
// arguments with their modes, names and defaults as PostgreSQL's
// print_function_arguments writes them. TABLE columns are the result's.
func builtinArgumentsText(p *pgProc, withDefaults bool) string {
	k := p.pg
	if k == nil || p.kind == 'a' || k.modes == "" && k.argNames == nil && k.defaults == nil {
		return builtinArguments(p)
	}
	return printArguments(p, withDefaults, false)
}

// printArguments is print_function_arguments over a built-in function of
// PostgreSQL's: the TABLE columns only (table), or the other arguments.
func printArguments(p *pgProc, withDefaults, table bool) string {
	k := p.pg
	types := k.allArgs
	if types == nil {
		types = p.args
	}
	inputs := 0
	firstDefault := len(p.args) - k.nargDefaults
	var parts []string
	for i, t := range types {
		mode := byte('i')
		if i < len(k.modes) {
			mode = k.modes[i]
		}
		var prefix string
		input := true
		switch mode {
		case 'o':
			prefix, input = "OUT ", false
		case 'b':
			prefix = "INOUT "
		case 'v':
			prefix = "VARIADIC "
		case 't':
			input = false
		}
		if input {
			inputs++
		}
		if table != (mode == 't') {
			continue
		}
		s := prefix
		if i < len(k.argNames) && k.argNames[i] != "" {
			s += sqltypes.QuoteIdent(k.argNames[i]) + " "
		}
		s += typeName(t)
		if withDefaults && input && inputs > firstDefault && inputs-firstDefault-1 < len(k.defaults) {
			s += " DEFAULT " + k.defaults[inputs-firstDefault-1]
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// builtinResult is pg_get_function_result of a built-in function.
func builtinResult(p *pgProc) string {
	if p.pg != nil && strings.IndexByte(p.pg.modes, 't') >= 0 {
		return "TABLE(" + printArguments(p, false, true) + ")"
	}
	r := typeName(p.ret)
	if p.retset {
		r = "SETOF " + r
	}
	return r
}

// builtinProcAttributes sets the pg_proc columns of a built-in function
// that PostgreSQL has to PostgreSQL's: its language, costs, support
// function, parallel safety, leakproofness, argument modes, names and
// defaults (as zproxy keeps a routine's: their text, parenthesized), and
// source. Volatility and strictness stay the registry's, which the
// function has.
func builtinProcAttributes(r *pgProcRow, k *pgSig) {
	r.Prolang, r.Procost, r.Prorows = oidV(k.lang), floatV(k.cost), floatV(k.rows)
	r.Proparallel, r.Proleakproof = charV(k.parallel), boolV(k.leakproof)
	r.Pronargdefaults = intV(int64(k.nargDefaults))
	if k.support != "" {
		if sigs := pgSigs()[k.support]; len(sigs) == 1 {
			r.Prosupport = regprocV(proc{sigs[0].oid, k.support})
		}
	}
	if k.allArgs != nil {
		r.Proallargtypes = oidArray(k.allArgs)
	}
	if k.modes != "" {
		r.Proargmodes = stringArray(sqltypes.TypeChar, strings.Split(k.modes, ""))
	}
	if k.argNames != nil {
		r.Proargnames = textArray(k.argNames)
	}
	if k.defaults != nil {
		r.Proargdefaults = textV("(" + strings.Join(k.defaults, ", ") + ")")
	}
	r.Prosrc = textV(k.src)
	if k.sqlBody != "" {
		r.Prosqlbody = textV(k.sqlBody)
	}
}
