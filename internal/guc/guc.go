package guc

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Type is a parameter's pg_settings.vartype.
type Type int

// The parameter types.
const (
	Bool Type = iota
	Integer
	Real
	Enum
	String
)

// String is the type as pg_settings.vartype names it.
func (t Type) String() string {
	return [...]string{"bool", "integer", "real", "enum", "string"}[t]
}

// Param is one run-time parameter as PostgreSQL 15 defines it. Min, Max and
// Boot are in the parameter's base unit, as pg_settings prints them.
type Param struct {
	Name, Context  string
	Type           Type
	Unit           string
	Min, Max, Boot string
	Category, Desc string
	EnumVals       []string
	Aliases        map[string]string // hidden enum spellings → the value they stand for
	// SuperuserOnly parameters (GUC_SUPERUSER_ONLY: file paths, library
	// lists) are read only by superusers and members of
	// pg_read_all_settings.
	SuperuserOnly      bool
	minValue, maxValue float64
	// boot is BootValue, parsed once: sessions read unset parameters'
	// defaults on every statement.
	bootOnce sync.Once
	boot     Value
}

// SessionSettable reports whether a session may change the parameter at
// all (contexts user and superuser); the others are the server's, fixed
// at its start or in its configuration.
func (p *Param) SessionSettable() bool {
	return p.Context == "user" || p.Context == "superuser"
}

// Value is a parameter's value as PostgreSQL prints it: Setting is
// pg_settings.setting (a number in the base unit), Show is what SHOW and
// current_setting print (with the largest unit that divides it).
type Value struct {
	Setting, Show string
	// Exact is a real's value in full (the double PostgreSQL's variable
	// holds, which SHOW prints to six digits); empty for other types.
	Exact string
}

// params are PostgreSQL's parameters and the built-in extensions', in
// name order.
var params = func() []*Param {
	out := make([]*Param, 0, len(pg15Params)+len(extensionParams))
	for i := range pg15Params {
		out = append(out, &pg15Params[i])
	}
	for i := range extensionParams {
		out = append(out, &extensionParams[i])
	}
	sort.SliceStable(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}()

var byName = func() map[string]*Param {
	m := make(map[string]*Param, len(params))
	for _, p := range params {
		p.minValue, _ = strconv.ParseFloat(p.Min, 64)
		p.maxValue, _ = strconv.ParseFloat(p.Max, 64)
		m[strings.ToLower(p.Name)] = p
	}
	return m
}()

// Lookup returns the parameter named name, in any case.
func Lookup(name string) (*Param, bool) {
	if p, ok := byName[name]; ok {
		return p, true // already lower case, as sessions keep names
	}
	p, ok := byName[strings.ToLower(name)]
	return p, ok
}

// All returns every parameter, ordered by name: those a session may set
// and the server's own.
func All() []*Param {
	return append([]*Param(nil), params...)
}

// BootValue is the parameter's value when nothing has set it.
func (p *Param) BootValue() Value {
	p.bootOnce.Do(func() {
		v, err := p.Parse(p.Boot)
		if err != nil {
			// Boot values come from PostgreSQL and parse by
			// construction; a string parameter's is returned as it is.
			v = Value{Setting: p.Boot, Show: p.Boot}
		}
		p.boot = v
	})
	return p.boot
}

// Parse reads value as SET name = value does and returns it normalised,
// or PostgreSQL's error (22023) for a value it refuses.
func (p *Param) Parse(value string) (Value, error) {
	switch p.Type {
	case Bool:
		b, ok := parseBool(value)
		if !ok {
			return Value{}, pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", p.Name)
		}
		s := "off"
		if b {
			s = "on"
		}
		return Value{Setting: s, Show: s}, nil
	case Integer:
		return p.parseInt(value)
	case Real:
		return p.parseReal(value)
	case Enum:
		for alias, v := range p.Aliases {
			if strings.EqualFold(alias, value) {
				return Value{Setting: v, Show: v}, nil
			}
		}
		for _, v := range p.EnumVals {
			if strings.EqualFold(v, value) {
				return Value{Setting: v, Show: v}, nil
			}
		}
		return Value{}, p.invalid(value).WithHint("Available values: %s.", strings.Join(p.EnumVals, ", "))
	}
	return Value{Setting: value, Show: value}, nil
}

func (p *Param) invalid(value string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", p.Name, value)
}

// parseBool is PostgreSQL's parse_bool: true, false, yes, no and any
// prefix of them, on and off (at least two letters), 1 and 0, in any case.
func parseBool(v string) (bool, bool) {
	l := strings.ToLower(v)
	if l == "" {
		return false, false
	}
	prefixOf := func(word string, minLen int) bool {
		return len(l) >= minLen && len(l) <= len(word) && word[:len(l)] == l
	}
	switch {
	case prefixOf("true", 1), prefixOf("yes", 1), prefixOf("on", 2), l == "1":
		return true, true
	case prefixOf("false", 1), prefixOf("no", 1), prefixOf("off", 2), l == "0":
		return false, true
	}
	return false, false
}

// ParseBool is parseBool for other packages (a view's boolean options).
func ParseBool(v string) (value, ok bool) { return parseBool(v) }

// parseInt is PostgreSQL's parse_int: an integer in C's notation (0x hex,
// leading-0 octal), or a decimal with a fraction or exponent, then an
// optional unit; rounded to an integer in the base unit, then checked
// against the bounds.
func (p *Param) parseInt(value string) (Value, error) {
	// As parse_int: C's strtol first, and strtod again where strtol
	// stopped at a decimal point or exponent, or overflowed.
	v, end, ok := strtol(value)
	if overflow := ok && end < 0; overflow || end < len(value) && strings.ContainsRune(".eE", rune(value[end])) {
		v, end, ok = strtod(value)
	}
	if !ok || math.IsNaN(v) {
		return Value{}, p.invalid(value)
	}
	v, err := p.applyUnit(value, value[end:], v)
	if err != nil {
		return Value{}, err
	}
	v = math.RoundToEven(v)
	if v > math.MaxInt32 || v < math.MinInt32 {
		return Value{}, p.invalid(value).WithHint("Value exceeds integer range.")
	}
	if v < p.minValue || v > p.maxValue {
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "%d%s is outside the valid range for parameter \"%s\" (%s .. %s)",
			int64(v), p.spacedUnit(), p.Name, p.Min, p.Max)
	}
	n := int64(v)
	show := strconv.FormatInt(n, 10)
	if n > 0 && p.Unit != "" {
		show = showInt(n, p.Unit)
	}
	return Value{Setting: strconv.FormatInt(n, 10), Show: show}, nil
}

// parseReal is PostgreSQL's parse_real: a C double, then an optional unit.
func (p *Param) parseReal(value string) (Value, error) {
	v, end, ok := strtod(value)
	if !ok || math.IsNaN(v) {
		return Value{}, p.invalid(value)
	}
	v, err := p.applyUnit(value, value[end:], v)
	if err != nil {
		return Value{}, err
	}
	if v < p.minValue || v > p.maxValue {
		return Value{}, pgerr.New(pgerr.InvalidParameterValue, "%s%s is outside the valid range for parameter \"%s\" (%s .. %s)",
			formatG(v), p.spacedUnit(), p.Name, formatG(p.minValue), formatG(p.maxValue))
	}
	show := formatG(v)
	if v > 0 && p.Unit != "" {
		show = showReal(v, p.Unit)
	}
	return Value{Setting: formatG(v), Show: show, Exact: strconv.FormatFloat(v, 'g', -1, 64)}, nil
}

func (p *Param) spacedUnit() string {
	if p.Unit == "" {
		return ""
	}
	return " " + p.Unit
}

// applyUnit converts v, followed by rest, to the parameter's base unit:
// rest is empty, or blanks and a unit name PostgreSQL knows for this kind
// of unit, and more blanks.
func (p *Param) applyUnit(value, rest string, v float64) (float64, error) {
	rest = strings.TrimLeft(rest, cSpace)
	if rest == "" {
		return v, nil
	}
	if p.Unit == "" {
		return 0, p.invalid(value)
	}
	name := rest
	if i := strings.IndexAny(rest, cSpace); i >= 0 {
		name = rest[:i]
		if strings.TrimLeft(rest[i:], cSpace) != "" {
			name = "" // garbage after the unit
		}
	}
	units := unitsFor(p.Unit)
	for i, u := range units {
		if name != "" && u.name == name {
			out := v * u.perBase
			if i+1 < len(units) {
				// A fraction of this unit rounds to a whole one of the
				// next smaller unit ("30.1GB"), as PostgreSQL rounds it.
				out = math.RoundToEven(out/units[i+1].perBase) * units[i+1].perBase
			}
			return out, nil
		}
	}
	hint := `Valid units for this parameter are "us", "ms", "s", "min", "h", and "d".`
	if isMemoryUnit(p.Unit) {
		hint = `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`
	}
	return 0, p.invalid(value).WithHint("%s", hint)
}

// cSpace is C's isspace.
const cSpace = " \t\n\v\f\r"

// unit is one of PostgreSQL's unit names and how many base units it is.
type unit struct {
	name    string
	perBase float64
}

var memoryBytes = []unit{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}}
var timeMillis = []unit{{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}, {"ms", 1}, {"us", 0.001}}

func isMemoryUnit(base string) bool {
	_, ok := baseBytes[base]
	return ok
}

var baseBytes = map[string]float64{"B": 1, "kB": 1 << 10, "MB": 1 << 20, "8kB": 8 << 10}
var baseMillis = map[string]float64{"ms": 1, "s": 1000, "min": 60000}

// unitsFor lists the unit names a parameter whose base unit is base
// accepts, largest first, each as a number of base units (guc.c's
// conversion tables).
func unitsFor(base string) []unit {
	table, per := timeMillis, baseMillis[base]
	if b, ok := baseBytes[base]; ok {
		table, per = memoryBytes, b
	}
	out := make([]unit, len(table))
	for i, u := range table {
		out[i] = unit{u.name, u.perBase / per}
	}
	return out
}

// showInt is convert_int_from_base_unit: the first (largest) unit that
// divides n.
func showInt(n int64, base string) string {
	for _, u := range unitsFor(base) {
		if u.perBase <= 1 || n%int64(u.perBase) == 0 {
			return strconv.FormatInt(int64(math.RoundToEven(float64(n)/u.perBase)), 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// showReal is convert_real_from_base_unit: the first unit in which v is
// whole (to within 1e-8), else the smallest.
func showReal(v float64, base string) string {
	var out float64
	var name string
	for _, u := range unitsFor(base) {
		out, name = v/u.perBase, u.name
		if out > 0 && math.Abs(math.RoundToEven(out)/out-1) <= 1e-8 {
			break
		}
	}
	return formatG(out) + name
}

// formatG is C's printf("%g").
func formatG(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "Infinity" // PostgreSQL's snprintf spells infinities so
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// strtol is C's strtol(s, &end, 0) as far as PostgreSQL relies on it:
// leading blanks, a sign, then hex (0x), octal (leading 0) or decimal
// digits. With no digits, ok is false and end 0 (C's end pointer is then
// s itself); on overflow ok is true and end -1.
func strtol(s string) (v float64, end int, ok bool) {
	i := len(s) - len(strings.TrimLeft(s, cSpace))
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base, start := 10, i
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && isDigit(s[i+2], 16) {
		base, i, start = 16, i+2, i+2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	var n uint64
	for i < len(s) && isDigit(s[i], base) {
		d, _ := strconv.ParseUint(s[i:i+1], 16, 8)
		if n > (math.MaxInt64-d)/uint64(base) {
			return 0, -1, true // ERANGE, which parse_int answers with strtod
		}
		n = n*uint64(base) + d
		i++
	}
	if i == start {
		return 0, 0, false
	}
	v = float64(n)
	if neg {
		v = -v
	}
	return v, i, true
}

func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') < base
	case base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		return true
	}
	return false
}

// strtod is C's strtod for decimal input: leading blanks, a sign, digits
// with an optional point and exponent, or inf/infinity/nan.
func strtod(s string) (v float64, end int, ok bool) {
	i := len(s) - len(strings.TrimLeft(s, cSpace))
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	lower := strings.ToLower(s[j:])
	for _, word := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(lower, word) {
			f, err := strconv.ParseFloat(s[i:j+len(word)], 64)
			return f, j + len(word), err == nil
		}
	}
	if strings.HasPrefix(lower, "0x") && len(lower) > 2 && (isDigit(lower[2], 16) || lower[2] == '.' && len(lower) > 3 && isDigit(lower[3], 16)) {
		return hexFloat(s, i, j)
	}
	digits := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j, digits = j+1, digits+1
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j, digits = j+1, digits+1
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	f, err := strconv.ParseFloat(s[i:j], 64)
	if err != nil {
		// ERANGE: out of a double's range.
		return 0, j, false
	}
	return f, j, true
}

// hexFloat reads C99's hexadecimal floating-point form (0x1.8p3) that
// strtod accepts, starting at s[i] with the digits after the sign at s[j].
func hexFloat(s string, i, j int) (float64, int, bool) {
	k := j + 2
	mantissa := "0x"
	for k < len(s) && isDigit(s[k], 16) {
		mantissa += s[k : k+1]
		k++
	}
	if k < len(s) && s[k] == '.' {
		mantissa += "."
		k++
		for k < len(s) && isDigit(s[k], 16) {
			mantissa += s[k : k+1]
			k++
		}
	}
	exp := "p0"
	if k < len(s) && (s[k] == 'p' || s[k] == 'P') {
		e := k + 1
		if e < len(s) && (s[e] == '+' || s[e] == '-') {
			e++
		}
		if e < len(s) && s[e] >= '0' && s[e] <= '9' {
			for e < len(s) && s[e] >= '0' && s[e] <= '9' {
				e++
			}
			exp, k = "p"+s[k+1:e], e
		}
	}
	f, err := strconv.ParseFloat(s[i:j]+mantissa+exp, 64)
	return f, k, err == nil
}
