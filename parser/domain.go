package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// CREATE DOMAIN and ALTER DOMAIN (DROP DOMAIN is DROP TYPE's parse): TiDB
// has neither, so the front end reads them into a TypeStatement.

// createDomain reads CREATE DOMAIN name [AS] type [COLLATE c] and its
// constraints, in any order as PostgreSQL's grammar takes them.
func (r *rewriter) createDomain() (*TypeStatement, error) {
	ts := &TypeStatement{Action: TypeCreateDomain, Domain: true, NamePos: r.pos(2)}
	name, k, err := r.relationName(2)
	if err != nil {
		return nil, err
	}
	ts.Names = []string{name}
	if r.peek(k, "as") {
		k++
	}
	ts.BasePos = r.pos(k)
	typ, udt, next, err := r.parseTypeRef(k)
	if err != nil {
		return nil, err
	}
	ts.Base, ts.BaseName, k = typ, udt, next
	end := len(r.toks)
	hasNull := false
	for k < end {
		start := k
		cname := ""
		if r.peek(k, "constraint") {
			if cname, err = r.name(k + 1); err != nil {
				return nil, err
			}
			k += 2
		}
		switch {
		case cname == "" && r.peek(k, "default"):
			stop := r.constraintEnd(k+1, end)
			if stop == k+1 {
				return nil, r.syntaxErrorAt(k + 1)
			}
			if ts.Default != "" {
				return nil, pgerr.New(pgerr.SyntaxError, "multiple default expressions").WithPosition(r.pos(start))
			}
			ts.Default = r.sql[r.toks[k+1].start:r.toks[stop-1].end]
			k = stop
		case cname == "" && r.peek(k, "collate"):
			coll, err := r.name(k + 1)
			if err != nil {
				return nil, err
			}
			if coll != "default" {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "collations other than \"default\" are not supported").WithPosition(r.pos(k))
			}
			k += 2
		case r.peek(k, "not") && r.peek(k+1, "null"), r.peek(k, "null"):
			notNull := r.peek(k, "not")
			if hasNull && ts.NotNull != notNull {
				return nil, pgerr.New(pgerr.SyntaxError, "conflicting NULL/NOT NULL constraints").WithPosition(r.pos(start))
			}
			hasNull, ts.NotNull = true, notNull
			k++
			if notNull {
				k++
			}
		case r.peek(k, "check") && r.peek(k+1, "("):
			c, next, err := r.domainCheck(k, cname)
			if err != nil {
				return nil, err
			}
			ts.Checks, k = append(ts.Checks, c), next
		case r.peek(k, "unique"):
			return nil, pgerr.New(pgerr.SyntaxError, "unique constraints not possible for domains").WithPosition(r.pos(start))
		case r.peek(k, "primary"):
			return nil, pgerr.New(pgerr.SyntaxError, "primary key constraints not possible for domains").WithPosition(r.pos(start))
		case r.peek(k, "references"):
			return nil, pgerr.New(pgerr.SyntaxError, "foreign key constraints not possible for domains").WithPosition(r.pos(start))
		default:
			return nil, r.syntaxErrorAt(k)
		}
	}
	return ts, nil
}

// domainCheck reads CHECK (expr) at k, named name ("" to have one
// chosen), and returns the index after it.
func (r *rewriter) domainCheck(k int, name string) (NamedCheck, int, error) {
	close := r.matching(k + 1)
	if close < 0 {
		return NamedCheck{}, 0, r.syntaxErrorAt(len(r.toks))
	}
	if close == k+2 {
		return NamedCheck{}, 0, r.syntaxErrorAt(close)
	}
	return NamedCheck{Name: name, SQL: r.valueText(k+2, close)}, close + 1, nil
}

// valueText is the text of tokens from to to (exclusive) as written but
// for the bare word value, in capitals: PostgreSQL prints a domain's CHECK
// with VALUE so.
func (r *rewriter) valueText(from, to int) string {
	var sb strings.Builder
	at := r.toks[from].start
	for k := from; k < to; k++ {
		t := r.toks[k]
		if t.kind == tkIdent && t.val == "value" {
			sb.WriteString(r.sql[at:t.start])
			sb.WriteString("VALUE")
			at = t.end
		}
	}
	sb.WriteString(r.sql[at:r.toks[to-1].end])
	return sb.String()
}

func (r *rewriter) alterDomain() (*TypeStatement, error) {
	ts := &TypeStatement{Domain: true, NamePos: r.pos(2)}
	name, k, err := r.relationName(2)
	if err != nil {
		return nil, err
	}
	ts.Names = []string{name}
	switch {
	case r.peek(k, "set") && r.peek(k+1, "default"):
		if k+2 >= len(r.toks) {
			return nil, r.syntaxErrorAt(k + 2)
		}
		ts.Action, ts.Default = DomainSetDefault, r.sql[r.toks[k+2].start:r.toks[len(r.toks)-1].end]
		k = len(r.toks)
	case r.peek(k, "drop") && r.peek(k+1, "default"):
		ts.Action, k = DomainSetDefault, k+2
	case (r.peek(k, "set") || r.peek(k, "drop")) && r.peek(k+1, "not") && r.peek(k+2, "null"):
		ts.Action, ts.NotNull, k = DomainSetNotNull, r.peek(k, "set"), k+3
	case r.peek(k, "add"):
		ts.Action = DomainAddCheck
		k++
		cname := ""
		if r.peek(k, "constraint") {
			if cname, err = r.name(k + 1); err != nil {
				return nil, err
			}
			k += 2
		}
		if !r.peek(k, "check") || !r.peek(k+1, "(") {
			return nil, r.syntaxErrorAt(k)
		}
		c, next, err := r.domainCheck(k, cname)
		if err != nil {
			return nil, err
		}
		ts.Checks, k = []NamedCheck{c}, next
		if r.peek(k, "not") && r.peek(k+1, "valid") {
			ts.NotValid, k = true, k+2
		}
	case r.peek(k, "drop") && r.peek(k+1, "constraint"):
		ts.Action = DomainDropConstraint
		k += 2
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			ts.MissingOK, k = true, k+2
		}
		if ts.Value, err = r.name(k); err != nil {
			return nil, err
		}
		k++
		if r.peek(k, "restrict") || r.peek(k, "cascade") {
			k++
		}
	case r.peek(k, "rename") && r.peek(k+1, "constraint"):
		ts.Action = DomainRenameConstraint
		if k, err = r.renamePair(ts, k+2, r.name); err != nil {
			return nil, err
		}
	case r.peek(k, "validate") && r.peek(k+1, "constraint"):
		ts.Action = DomainValidate
		if ts.Value, err = r.name(k + 2); err != nil {
			return nil, err
		}
		k += 3
	default:
		return r.renameOrOwner(ts, k, "DOMAIN")
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return ts, nil
}
