package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// byteOrderOpclasses are the btree operator classes whose order is the one
// every zproxy btree key has anyway (values compared as PostgreSQL's C
// collation compares them): the types' default classes, and the
// *_pattern_ops classes that ORMs give text columns so LIKE 'prefix%' can
// use the index (Django's "_like" indexes). Naming one changes nothing.
var byteOrderOpclasses = map[string]bool{
	"text_pattern_ops": true, "varchar_pattern_ops": true, "bpchar_pattern_ops": true,
	"text_ops": true, "varchar_ops": true, "bpchar_ops": true,
	"int2_ops": true, "int4_ops": true, "int8_ops": true, "numeric_ops": true,
	"float4_ops": true, "float8_ops": true, "bool_ops": true, "bytea_ops": true,
	"date_ops": true, "time_ops": true, "timestamp_ops": true, "timestamptz_ops": true,
	"interval_ops": true, "uuid_ops": true,
	// The network types' keys are in network_cmp's order (cidr_ops is
	// inet_ops' order too) and macaddr's bytewise.
	"inet_ops": true, "cidr_ops": true, "macaddr_ops": true, "macaddr8_ops": true,
}

// dropOpclasses removes the operator classes named after the columns of a
// CREATE INDEX column list (the tokens from open to its closing
// parenthesis close): those in byteOrderOpclasses; in a gin or gist index,
// any, since the class says what its tokens or coordinates are: kept in
// Statement.IndexOpclasses for the binder to check; any other is 0A000.
func (r *rewriter) dropOpclasses(open, close int) error {
	depth, part := 0, 0
	for k := open + 1; k < close; k++ {
		switch {
		case r.toks[k].is("("):
			depth++
		case r.toks[k].is(")"):
			depth--
		case depth == 0 && r.toks[k].is(","):
			part++
		case depth == 0 && r.toks[k].kind == tkIdent && strings.HasSuffix(r.toks[k].val, "_ops") && k > open+1:
			name := r.toks[k].val
			switch {
			case r.st.IndexMethod == "gin" || r.st.IndexMethod == "gist":
				// The binder checks the class against the key's type.
				if r.st.IndexOpclasses == nil {
					r.st.IndexOpclasses = map[int]string{}
				}
				r.st.IndexOpclasses[part] = name
			case byteOrderOpclasses[name]:
			default:
				return pgerr.New(pgerr.FeatureNotSupported, "operator class %s is not supported", name).WithPosition(r.pos(k))
			}
			r.drop(k, k+1)
		}
	}
	return nil
}
