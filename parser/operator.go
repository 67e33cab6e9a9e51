package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// CREATE OPERATOR, DROP OPERATOR, CREATE CAST and DROP CAST. TiDB has
// none of them, so the front end reads them into a RoutineStatement whose
// Operator or Cast is set: they name functions, are created and dropped
// as routines are, and depend on the functions they call.

// OperatorSig names an operator in DROP OPERATOR: name (left, right),
// left NONE (HasLeft false) for a prefix operator.
type OperatorSig struct {
	Name        string
	Left, Right RoutineParam
	HasLeft     bool
}

// OperatorSpec is CREATE OPERATOR's definition (Sig its name and
// operand types) or DROP OPERATOR's operators (Drop).
type OperatorSpec struct {
	Sig OperatorSig
	// Func is FUNCTION's (or PROCEDURE's) function name.
	Func string
	// HasRight is whether RIGHTARG was given.
	HasRight bool
	// Commutator and Negator are the operators named ("" for none).
	Commutator, Negator string
	// Restrict and Join name the selectivity estimators.
	Restrict, Join string
	Hashes, Merges bool
	Drop           []OperatorSig
}

// CastSpec is CREATE CAST's or DROP CAST's cast.
type CastSpec struct {
	Source, Target RoutineParam
	// Func is WITH FUNCTION's function and FuncArgs its argument types
	// (HasFuncArgs when a list was written).
	Func        string
	FuncArgs    []RoutineParam
	HasFuncArgs bool
	// Method is 'f' (WITH FUNCTION), 'b' (WITHOUT FUNCTION) or 'i' (WITH
	// INOUT); Context 'e', 'a' (AS ASSIGNMENT) or 'i' (AS IMPLICIT).
	Method, Context byte
}

// operatorStmt reads CREATE or DROP OPERATOR (cast false) or CAST from k,
// after the word OPERATOR or CAST.
func (r *rewriter) operatorStmt(create, cast bool, k int) (*RoutineStatement, error) {
	rs := &RoutineStatement{Action: RoutineCreate}
	if !create {
		rs.Action = RoutineDrop
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			rs.MissingOK, k = true, k+2
		}
	}
	switch {
	case !cast && create:
		rs.Operator = &OperatorSpec{}
		return rs, r.createOperator(rs.Operator, k)
	case !cast:
		rs.Operator = &OperatorSpec{}
		for {
			sig, next, err := r.operatorSig(k)
			if err != nil {
				return nil, err
			}
			rs.Operator.Drop, k = append(rs.Operator.Drop, sig), next
			if !r.peek(k, ",") {
				break
			}
			k++
		}
		return rs, r.dropBehavior(rs, k)
	}
	rs.Cast = &CastSpec{Method: 'f', Context: 'e'}
	c := rs.Cast
	var err error
	if k, err = r.castTypes(c, k); err != nil {
		return nil, err
	}
	if !create {
		return rs, r.dropBehavior(rs, k)
	}
	switch {
	case r.peek(k, "with") && r.peek(k+1, "function"):
		pos := r.pos(k + 2)
		if c.Func, k, err = r.relationName(k + 2); err != nil {
			return nil, err
		}
		c.Func = strings.TrimPrefix(c.Func, "pg_catalog.")
		rs.Refs = []RoutineRef{{Name: c.Func, Pos: pos}}
		if r.peek(k, "(") {
			c.HasFuncArgs = true
			if c.FuncArgs, k, err = r.routineParams(k, false); err != nil {
				return nil, err
			}
		}
	case r.peek(k, "without") && r.peek(k+1, "function"):
		c.Method, k = 'b', k+2
	case r.peek(k, "with") && r.peek(k+1, "inout"):
		c.Method, k = 'i', k+2
	default:
		return nil, r.syntaxErrorAt(k)
	}
	switch {
	case r.peek(k, "as") && r.peek(k+1, "assignment"):
		c.Context, k = 'a', k+2
	case r.peek(k, "as") && r.peek(k+1, "implicit"):
		c.Context, k = 'i', k+2
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return rs, nil
}

// typeParam reads a type at k.
func (r *rewriter) typeParam(k int) (RoutineParam, int, error) {
	t, name, next, err := r.parseTypeRef(k)
	return RoutineParam{Mode: ModeIn, Type: t, TypeName: name}, next, err
}

// qualifiedOperator reads an operator name at k: op, or schema.op read
// as "schema.op" (an operator's name has no dot; pg_catalog's operators
// are zproxy's built-in ones, named bare).
func (r *rewriter) qualifiedOperator(k int) (string, int, error) {
	schema := ""
	if k+2 < len(r.toks) && (r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent) && r.peek(k+1, ".") {
		if s := r.toks[k].val; s != "pg_catalog" {
			schema = s + "."
		}
		k += 2
	}
	if k >= len(r.toks) || r.toks[k].kind != tkOp {
		return "", k, r.syntaxErrorAt(k)
	}
	return schema + r.toks[k].val, k + 1, nil
}

// castTypes reads a cast's (source AS target) at k into c, returning the
// index after it.
func (r *rewriter) castTypes(c *CastSpec, k int) (int, error) {
	if !r.peek(k, "(") {
		return k, r.syntaxErrorAt(k)
	}
	var err error
	if c.Source, k, err = r.typeParam(k + 1); err != nil {
		return k, err
	}
	if !r.peek(k, "as") {
		return k, r.syntaxErrorAt(k)
	}
	if c.Target, k, err = r.typeParam(k + 1); err != nil {
		return k, err
	}
	if !r.peek(k, ")") {
		return k, r.syntaxErrorAt(k)
	}
	return k + 1, nil
}

// operatorSig reads DROP OPERATOR's name ({left | NONE}, right) at k.
func (r *rewriter) operatorSig(k int) (OperatorSig, int, error) {
	var sig OperatorSig
	var err error
	if sig.Name, k, err = r.qualifiedOperator(k); err != nil {
		return sig, k, err
	}
	if !r.peek(k, "(") {
		return sig, k, r.syntaxErrorAt(k)
	}
	if r.peek(k+1, "none") {
		k += 2
	} else {
		if sig.Left, k, err = r.typeParam(k + 1); err != nil {
			return sig, k, err
		}
		sig.HasLeft = true
	}
	if !r.peek(k, ",") {
		return sig, k, pgerr.New(pgerr.SyntaxError, "missing argument").WithPosition(r.pos(k)).
			WithHint("Use NONE to denote the missing argument of a unary operator.")
	}
	if sig.Right, k, err = r.typeParam(k + 1); err != nil {
		return sig, k, err
	}
	if !r.peek(k, ")") {
		return sig, k, r.syntaxErrorAt(k)
	}
	return sig, k + 1, nil
}

// createOperator reads CREATE OPERATOR's name and definition list at k.
func (r *rewriter) createOperator(o *OperatorSpec, k int) error {
	var err error
	if o.Sig.Name, k, err = r.qualifiedOperator(k); err != nil {
		return err
	}
	k, err = r.parenList(k, func(k int) (int, error) {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
			return k, r.syntaxErrorAt(k)
		}
		opt, at := strings.ToLower(r.toks[k].val), k
		k++
		switch opt {
		case "hashes":
			o.Hashes = true
			err := r.boolValue(&o.Hashes, &k)
			return k, err
		case "merges":
			o.Merges = true
			err := r.boolValue(&o.Merges, &k)
			return k, err
		}
		if !r.peek(k, "=") {
			return k, r.syntaxErrorAt(k)
		}
		k++
		var err error
		switch opt {
		case "function", "procedure":
			if o.Func, k, err = r.relationName(k); err == nil {
				o.Func = strings.TrimPrefix(o.Func, "pg_catalog.")
			}
		case "leftarg":
			o.Sig.Left, k, err = r.typeParam(k)
			o.Sig.HasLeft = true
		case "rightarg":
			o.Sig.Right, k, err = r.typeParam(k)
			o.HasRight = true
		case "commutator":
			o.Commutator, k, err = r.operatorRef(k)
		case "negator":
			o.Negator, k, err = r.operatorRef(k)
		case "restrict":
			o.Restrict, k, err = r.relationName(k)
		case "join":
			o.Join, k, err = r.relationName(k)
		default:
			return k, pgerr.New(pgerr.SyntaxError, "operator attribute \"%s\" not recognized", opt).WithPosition(r.pos(at))
		}
		return k, err
	})
	if err != nil {
		return err
	}
	if k < len(r.toks) {
		return r.syntaxErrorAt(k)
	}
	return nil
}

// operatorRef reads an operator named in a definition list: op,
// schema.op or OPERATOR(schema.op).
func (r *rewriter) operatorRef(k int) (string, int, error) {
	if r.peek(k, "operator") && r.peek(k+1, "(") {
		name, next, err := r.qualifiedOperator(k + 2)
		if err != nil {
			return "", next, err
		}
		if !r.peek(next, ")") {
			return "", next, r.syntaxErrorAt(next)
		}
		return name, next + 1, nil
	}
	return r.qualifiedOperator(k)
}

// alterObject reads ALTER AGGREGATE sig {OWNER TO | RENAME TO | SET
// SCHEMA} name and ALTER OPERATOR sig {OWNER TO role | SET SCHEMA s}.
func (r *rewriter) alterObject(operator bool) (*RoutineStatement, error) {
	rs := &RoutineStatement{}
	k := 2
	if operator {
		sig, next, err := r.operatorSig(k)
		if err != nil {
			return nil, err
		}
		rs.Operator, k = &OperatorSpec{Drop: []OperatorSig{sig}}, next
	} else {
		ref, next, err := r.aggregateSignature(k)
		if err != nil {
			return nil, err
		}
		rs.Aggregate, rs.Refs, k = &AggregateSpec{}, []RoutineRef{ref}, next
	}
	switch {
	case r.peek(k, "owner") && r.peek(k+1, "to"):
		rs.Action = RoutineOwner
	case r.peek(k, "rename") && r.peek(k+1, "to") && !operator:
		rs.Action = RoutineRename
	case r.peek(k, "set") && r.peek(k+1, "schema"):
		// SET SCHEMA s, read as a rename into s (SetSchema).
		rs.Action, rs.SetSchema = RoutineRename, true
	case operator && r.peek(k, "set"):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER OPERATOR ... SET is not supported").WithPosition(r.pos(k))
	default:
		return nil, r.syntaxErrorAt(k)
	}
	return rs, r.newName(rs, k+2)
}
