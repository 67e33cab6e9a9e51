package parser

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// CREATE AGGREGATE and DROP AGGREGATE. TiDB has neither, so the front end
// reads them into a RoutineStatement whose Aggregate is set: an aggregate
// is a pg_proc row (prokind 'a') like a function, created, replaced and
// dropped as one, with its pg_aggregate definition beside it.

// AggregateSpec is CREATE AGGREGATE's definition list, as written.
type AggregateSpec struct {
	// SFunc, FinalFunc, CombineFunc, SerialFunc, DeserialFunc, MSFunc,
	// MInvFunc and MFinalFunc name the support functions ("" when not
	// given).
	SFunc, FinalFunc, CombineFunc, SerialFunc, DeserialFunc string
	MSFunc, MInvFunc, MFinalFunc                            string
	// SType and MSType are the state types (MSType.Type zero when not
	// given).
	SType, MSType RoutineParam
	HasMSType     bool
	// InitCond and MInitCond are the initial states' text (nil: none).
	InitCond, MInitCond *string
	// FinalExtra and MFinalExtra are FINALFUNC_EXTRA and
	// MFINALFUNC_EXTRA.
	FinalExtra, MFinalExtra bool
	// FinalModify and MFinalModify are FINALFUNC_MODIFY's 'r', 's' or
	// 'w' (0 when not given).
	FinalModify, MFinalModify byte
	// SortOp is SORTOP's operator ("" for none).
	SortOp string
	// SSpace and MSSpace are the state sizes.
	SSpace, MSSpace int
	// Parallel is PARALLEL's 's', 'r' or 'u' (0 when not given).
	Parallel byte
}

// createAggregate reads CREATE [OR REPLACE] AGGREGATE's rest from k: the
// name, the arguments and the definition list.
func (r *rewriter) createAggregate(rs *RoutineStatement, k int) error {
	rs.Aggregate = &AggregateSpec{}
	pos := r.pos(k)
	name, k, err := r.relationName(k)
	if err != nil {
		return err
	}
	rs.Refs = []RoutineRef{{Name: name, Pos: pos, HasArgs: true}}
	if !r.peek(k, "(") {
		return r.syntaxErrorAt(k)
	}
	close := r.matching(k)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	// The old syntax: CREATE AGGREGATE name (BASETYPE = type, ...).
	oldStyle := k+2 < len(r.toks) && r.toks[k+1].kind == tkIdent && r.peek(k+2, "=")
	if !oldStyle {
		if rs.Params, k, err = r.aggregateArgs(k); err != nil {
			return err
		}
		if !r.peek(k, "(") {
			return r.syntaxErrorAt(k)
		}
	}
	rs.Refs[0].Args = rs.Params
	var base *RoutineParam
	if k, err = r.parenList(k, func(k int) (int, error) {
		if oldStyle && r.peek(k, "basetype") && r.peek(k+1, "=") {
			if k+2 < len(r.toks) && r.toks[k+2].val == "any" && (r.toks[k+2].kind == tkIdent || r.toks[k+2].kind == tkQIdent) {
				// BASETYPE = "any": an aggregate of no arguments.
				base = &RoutineParam{Mode: 0}
				return k + 3, nil
			}
			t, tn, next, err := r.parseTypeRef(k + 2)
			if err != nil {
				return next, err
			}
			base = &RoutineParam{Mode: ModeIn, Type: t, TypeName: tn}
			return next, nil
		}
		return r.aggregateOption(rs.Aggregate, k)
	}); err != nil {
		return err
	}
	if k < len(r.toks) {
		return r.syntaxErrorAt(k)
	}
	if oldStyle {
		if base == nil {
			return pgerr.New(pgerr.InvalidFunctionDefinition, "aggregate input type must be specified")
		}
		if base.Mode != 0 {
			rs.Params = []RoutineParam{*base}
			rs.Refs[0].Args = rs.Params
		}
	}
	a := rs.Aggregate
	if a.SType.Type.ID == 0 && a.SType.TypeName == "" {
		return pgerr.New(pgerr.InvalidFunctionDefinition, "aggregate stype must be specified")
	}
	if a.SFunc == "" {
		return pgerr.New(pgerr.InvalidFunctionDefinition, "aggregate sfunc must be specified")
	}
	rs.Options.Language = "internal"
	return nil
}

// aggregateArgs reads an aggregate's argument list at k: (*), () or
// parameters; an ordered-set aggregate's (... ORDER BY ...) is refused.
func (r *rewriter) aggregateArgs(k int) ([]RoutineParam, int, error) {
	if r.peek(k+1, "*") && r.peek(k+2, ")") {
		return nil, k + 3, nil
	}
	close := r.matching(k)
	for j := k + 1; j < close; j++ {
		if r.peek(j, "order") && r.peek(j+1, "by") {
			return nil, k, pgerr.New(pgerr.FeatureNotSupported, "ordered-set aggregates are not supported").WithPosition(r.pos(j))
		}
	}
	return r.routineParams(k, false)
}

// aggregateSignature reads DROP AGGREGATE's name (args) at k.
func (r *rewriter) aggregateSignature(k int) (RoutineRef, int, error) {
	ref := RoutineRef{Pos: r.pos(k), HasArgs: true}
	name, k, err := r.relationName(k)
	if err != nil {
		return ref, k, err
	}
	ref.Name = name
	if !r.peek(k, "(") {
		return ref, k, r.syntaxErrorAt(k)
	}
	ref.Args, k, err = r.aggregateArgs(k)
	return ref, k, err
}

// dropAggregate reads DROP AGGREGATE [IF EXISTS] name (args) [, ...]
// [CASCADE | RESTRICT] from k (after AGGREGATE).
func (r *rewriter) dropAggregate(k int) (*RoutineStatement, error) {
	rs := &RoutineStatement{Action: RoutineDrop, Aggregate: &AggregateSpec{}}
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		rs.MissingOK, k = true, k+2
	}
	for {
		ref, next, err := r.aggregateSignature(k)
		if err != nil {
			return nil, err
		}
		rs.Refs, k = append(rs.Refs, ref), next
		if !r.peek(k, ",") {
			break
		}
		k++
	}
	return rs, r.dropBehavior(rs, k)
}

// dropBehavior reads DROP's [CASCADE | RESTRICT] at k, the statement's
// end.
func (r *rewriter) dropBehavior(rs *RoutineStatement, k int) error {
	switch {
	case r.peek(k, "cascade"):
		rs.Cascade, k = true, k+1
	case r.peek(k, "restrict"):
		k++
	}
	if k < len(r.toks) {
		return r.syntaxErrorAt(k)
	}
	return nil
}

// aggregateOption reads one name [= value] of CREATE AGGREGATE's
// definition list at k.
func (r *rewriter) aggregateOption(a *AggregateSpec, k int) (int, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return k, r.syntaxErrorAt(k)
	}
	opt := strings.ToLower(r.toks[k].val)
	at := k
	k++
	switch opt {
	case "finalfunc_extra":
		a.FinalExtra = true
		err := r.boolValue(&a.FinalExtra, &k)
		return k, err
	case "mfinalfunc_extra":
		a.MFinalExtra = true
		err := r.boolValue(&a.MFinalExtra, &k)
		return k, err
	case "hypothetical":
		return k, pgerr.New(pgerr.FeatureNotSupported, "hypothetical-set aggregates are not supported").WithPosition(r.pos(at))
	}
	if !r.peek(k, "=") {
		return k, r.syntaxErrorAt(k)
	}
	k++
	fn := func(dst *string) (int, error) {
		name, next, err := r.relationName(k)
		if err != nil {
			return next, err
		}
		*dst = strings.TrimPrefix(name, "pg_catalog.")
		return next, nil
	}
	typ := func(dst *RoutineParam) (int, error) {
		t, name, next, err := r.parseTypeRef(k)
		if err != nil {
			return next, err
		}
		*dst = RoutineParam{Mode: ModeIn, Type: t, TypeName: name}
		return next, nil
	}
	text := func(dst **string) (int, error) {
		if k >= len(r.toks) {
			return k, r.syntaxErrorAt(k)
		}
		s := r.toks[k].val
		next := k + 1
		if r.peek(k, "-") && k+1 < len(r.toks) && r.toks[k+1].kind == tkNumber {
			s, next = "-"+r.toks[k+1].val, k+2
		} else if r.toks[k].kind == tkPunct || r.toks[k].kind == tkOp {
			return k, r.syntaxErrorAt(k)
		}
		*dst = &s
		return next, nil
	}
	num := func(dst *int) (int, error) {
		if k >= len(r.toks) || r.toks[k].kind != tkNumber {
			return k, r.syntaxErrorAt(k)
		}
		n, err := strconv.Atoi(r.toks[k].val)
		if err != nil {
			return k, pgerr.New(pgerr.SyntaxError, "%s requires an integer value", opt)
		}
		*dst = n
		return k + 1, nil
	}
	modify := func(dst *byte) (int, error) {
		w, err := r.name(k)
		if err != nil {
			return k, err
		}
		switch w {
		case "read_only":
			*dst = 'r'
		case "shareable":
			*dst = 's'
		case "read_write":
			*dst = 'w'
		default:
			return k, pgerr.New(pgerr.SyntaxError, "parameter \"%s\" must be READ_ONLY, SHAREABLE, or READ_WRITE", opt)
		}
		return k + 1, nil
	}
	switch opt {
	case "sfunc", "sfunc1":
		return fn(&a.SFunc)
	case "finalfunc":
		return fn(&a.FinalFunc)
	case "combinefunc":
		return fn(&a.CombineFunc)
	case "serialfunc":
		return fn(&a.SerialFunc)
	case "deserialfunc":
		return fn(&a.DeserialFunc)
	case "msfunc":
		return fn(&a.MSFunc)
	case "minvfunc":
		return fn(&a.MInvFunc)
	case "mfinalfunc":
		return fn(&a.MFinalFunc)
	case "stype", "stype1":
		return typ(&a.SType)
	case "mstype":
		a.HasMSType = true
		return typ(&a.MSType)
	case "initcond", "initcond1":
		return text(&a.InitCond)
	case "minitcond":
		return text(&a.MInitCond)
	case "sspace":
		return num(&a.SSpace)
	case "msspace":
		return num(&a.MSSpace)
	case "finalfunc_modify":
		return modify(&a.FinalModify)
	case "mfinalfunc_modify":
		return modify(&a.MFinalModify)
	case "parallel":
		w, err := r.name(k)
		if err != nil {
			return k, err
		}
		switch w {
		case "safe":
			a.Parallel = 's'
		case "restricted":
			a.Parallel = 'r'
		case "unsafe":
			a.Parallel = 'u'
		default:
			return k, pgerr.New(pgerr.SyntaxError, "parameter \"parallel\" must be SAFE, RESTRICTED, or UNSAFE")
		}
		return k + 1, nil
	case "sortop":
		op, next, err := r.operatorName(k)
		a.SortOp = op
		return next, err
	}
	return k, pgerr.New(pgerr.SyntaxError, "aggregate attribute \"%s\" not recognized", opt).WithPosition(r.pos(at))
}

// boolValue reads an optional "= true | false" after a flag option.
func (r *rewriter) boolValue(dst *bool, k *int) error {
	if !r.peek(*k, "=") {
		return nil
	}
	switch {
	case r.peek(*k+1, "true") || r.peek(*k+1, "on"):
		*dst = true
	case r.peek(*k+1, "false") || r.peek(*k+1, "off"):
		*dst = false
	default:
		return r.syntaxErrorAt(*k + 1)
	}
	*k += 2
	return nil
}

// operatorName reads an operator at k: its symbol, or OPERATOR(schema.op).
// A schema of pg_catalog or public is dropped (operators are looked up by
// symbol).
func (r *rewriter) operatorName(k int) (string, int, error) {
	if r.peek(k, "operator") && r.peek(k+1, "(") {
		close := r.matching(k + 1)
		if close < 0 {
			return "", k, r.syntaxErrorAt(len(r.toks))
		}
		j := k + 2
		if j+1 < close && r.peek(j+1, ".") {
			j += 2
		}
		if j+1 != close || r.toks[j].kind != tkOp {
			return "", k, r.syntaxErrorAt(j)
		}
		return r.toks[j].val, close + 1, nil
	}
	if k < len(r.toks) && r.toks[k].kind == tkOp {
		return r.toks[k].val, k + 1, nil
	}
	return "", k, r.syntaxErrorAt(k)
}
