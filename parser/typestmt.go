package parser

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TypeAction is what a TypeStatement does.
type TypeAction uint8

// The type statements.
const (
	// TypeCreateEnum is CREATE TYPE name AS ENUM ('label', ...).
	TypeCreateEnum TypeAction = iota
	// TypeAddValue is ALTER TYPE name ADD VALUE [IF NOT EXISTS] 'label'
	// [BEFORE | AFTER 'neighbour'].
	TypeAddValue
	// TypeRenameValue is ALTER TYPE name RENAME VALUE 'old' TO 'new'.
	TypeRenameValue
	// TypeRename is ALTER TYPE name RENAME TO new.
	TypeRename
	// TypeOwner is ALTER TYPE name OWNER TO role (NewName is the role;
	// CURRENT_USER, CURRENT_ROLE and SESSION_USER stay those words).
	TypeOwner
	// TypeDrop is DROP TYPE [IF EXISTS] name [, ...] [CASCADE | RESTRICT].
	TypeDrop
	// TypeComment is COMMENT ON TYPE | DOMAIN name IS 'text' | NULL:
	// Comment is the text ("" removes it, as NULL does).
	TypeComment

	// The domain statements (domain.go): TypeRename, TypeOwner and
	// TypeDrop with Domain set are ALTER DOMAIN ... RENAME TO, OWNER TO
	// and DROP DOMAIN.

	// TypeCreateDomain is CREATE DOMAIN name [AS] type [COLLATE c]
	// [DEFAULT expr] [[CONSTRAINT name] NOT NULL | NULL | CHECK (expr)]...
	TypeCreateDomain
	// DomainSetDefault is ALTER DOMAIN name SET DEFAULT expr (Default),
	// or DROP DEFAULT (Default "").
	DomainSetDefault
	// DomainSetNotNull is ALTER DOMAIN name SET NOT NULL (NotNull) or
	// DROP NOT NULL.
	DomainSetNotNull
	// DomainAddCheck is ALTER DOMAIN name ADD [CONSTRAINT c] CHECK (expr)
	// [NOT VALID]: Checks has the one.
	DomainAddCheck
	// DomainDropConstraint is ALTER DOMAIN name DROP CONSTRAINT [IF
	// EXISTS] Value [RESTRICT | CASCADE].
	DomainDropConstraint
	// DomainRenameConstraint is ALTER DOMAIN name RENAME CONSTRAINT Value
	// TO NewName.
	DomainRenameConstraint
	// DomainValidate is ALTER DOMAIN name VALIDATE CONSTRAINT Value.
	DomainValidate
	// TypeCreateRange is CREATE TYPE name AS RANGE (SUBTYPE = type
	// [, option = value]...): Base or BaseName is the subtype, Range the
	// options.
	TypeCreateRange
	// DomainCommentConstraint is COMMENT ON CONSTRAINT Value ON DOMAIN
	// name IS 'text' | NULL (Comment; "" removes it).
	DomainCommentConstraint
)

// TypeStatement is one of the statements on user-defined types, parsed by
// the front end (TiDB has none of them).
type TypeStatement struct {
	Action TypeAction
	// Names are the types named: one, except for DROP.
	Names []string
	// NamePos is the 1-based position of the first name.
	NamePos int
	// MissingOK is DROP's IF EXISTS or ADD VALUE's IF NOT EXISTS.
	MissingOK bool
	Cascade   bool
	// Labels are CREATE's labels, in order.
	Labels []string
	// Value is ADD VALUE's new label, or RENAME VALUE's old one;
	// Neighbour is BEFORE or AFTER's label ("" for none), Before says
	// which.
	Value, Neighbour string
	Before           bool
	// NewName is RENAME TO's name, or RENAME VALUE's new label.
	NewName string
	// SetSchema marks SET SCHEMA NewName, read as TypeRename: the binder
	// makes NewName the type's key in that schema.
	SetSchema bool
	// Comment is COMMENT ON's text (TypeComment).
	Comment string

	// Domain: the statement is CREATE, ALTER or DROP DOMAIN.
	Domain bool
	// Base is CREATE DOMAIN's type: a built-in one, or BaseName names a
	// user-defined one ("mood", "mood[]") for the binder to look up.
	Base     sqltypes.Type
	BaseName string
	// BasePos is the 1-based position of the base type.
	BasePos int
	// Default is CREATE DOMAIN's or SET DEFAULT's expression as written.
	Default string
	// NotNull is CREATE DOMAIN's NOT NULL, or SET (not DROP) NOT NULL.
	NotNull bool
	// Checks are CREATE DOMAIN's or ADD's CHECK constraints, VALUE
	// spelled in capitals as PostgreSQL prints it.
	Checks []NamedCheck
	// NotValid is ADD's NOT VALID.
	NotValid bool

	// Attrs are a composite type's attributes (composite.go): CREATE's,
	// or ADD ATTRIBUTE's one.
	Attrs []TypeAttr

	// Range holds CREATE TYPE ... AS RANGE's options but the subtype.
	Range RangeOptions
}

// RangeOptions are the options of CREATE TYPE ... AS RANGE: each a
// (possibly qualified) name as written, "" when not given.
type RangeOptions struct {
	SubtypeOpclass, Collation, Canonical, SubtypeDiff, MultirangeTypeName string
}

// typeStmt parses the statements of TypeStatement, or returns nil for
// another statement. CREATE TYPE's other forms (composite, range, base
// and shell types) are refused with 0A000.
func (r *rewriter) typeStmt() (*TypeStatement, error) {
	switch {
	case r.peek(0, "create") && r.peek(1, "type"):
		return r.createType()
	case r.peek(0, "alter") && r.peek(1, "type"):
		return r.alterType()
	case r.peek(0, "create") && r.peek(1, "domain"):
		return r.createDomain()
	case r.peek(0, "alter") && r.peek(1, "domain"):
		return r.alterDomain()
	case r.peek(0, "drop") && (r.peek(1, "type") || r.peek(1, "domain")):
		ts := &TypeStatement{Action: TypeDrop, Domain: r.peek(1, "domain")}
		k := 2
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			ts.MissingOK, k = true, k+2
		}
		ts.NamePos = r.pos(k)
		for {
			name, next, err := r.relationName(k)
			if err != nil {
				return nil, err
			}
			ts.Names, k = append(ts.Names, name), next
			if !r.peek(k, ",") {
				break
			}
			k++
		}
		switch {
		case r.peek(k, "cascade"):
			ts.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		}
		if k < len(r.toks) {
			return nil, r.syntaxErrorAt(k)
		}
		return ts, nil
	}
	return nil, nil
}

func (r *rewriter) createType() (*TypeStatement, error) {
	ts := &TypeStatement{Action: TypeCreateEnum, NamePos: r.pos(2)}
	name, k, err := r.relationName(2)
	if err != nil {
		return nil, err
	}
	ts.Names = []string{name}
	switch {
	case r.peek(k, "as") && r.peek(k+1, "enum") && r.peek(k+2, "("):
	case r.peek(k, "as") && r.peek(k+1, "("):
		return r.createComposite(ts, k+1)
	case r.peek(k, "as") && r.peek(k+1, "range") && r.peek(k+2, "("):
		return r.createRange(ts, k+2)
	case k == len(r.toks) || r.peek(k, "("):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "base and shell types are not supported").WithPosition(r.pos(0))
	default:
		return nil, r.syntaxErrorAt(k)
	}
	k += 2
	if r.peek(k+1, ")") {
		k += 2 // an enum without labels, as PostgreSQL allows
	} else if k, err = r.parenList(k, func(k int) (int, error) {
		label, err := r.stringAt(k)
		ts.Labels = append(ts.Labels, label)
		return k + 1, err
	}); err != nil {
		return nil, err
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return ts, nil
}

func (r *rewriter) alterType() (*TypeStatement, error) {
	ts := &TypeStatement{NamePos: r.pos(2)}
	name, k, err := r.relationName(2)
	if err != nil {
		return nil, err
	}
	ts.Names = []string{name}
	switch {
	case r.peek(k, "add") && r.peek(k+1, "value"):
		ts.Action, k = TypeAddValue, k+2
		if r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists") {
			ts.MissingOK, k = true, k+3
		}
		if ts.Value, err = r.stringAt(k); err != nil {
			return nil, err
		}
		k++
		if r.peek(k, "before") || r.peek(k, "after") {
			ts.Before = r.peek(k, "before")
			if ts.Neighbour, err = r.stringAt(k + 1); err != nil {
				return nil, err
			}
			k += 2
		}
	case r.peek(k, "rename") && r.peek(k+1, "value"):
		ts.Action = TypeRenameValue
		if k, err = r.renamePair(ts, k+2, r.stringAt); err != nil {
			return nil, err
		}
	default:
		if a, err := r.alterAttribute(ts, k); a != nil || err != nil {
			return a, err
		}
		return r.renameOrOwner(ts, k, "TYPE")
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return ts, nil
}

// renameOrOwner reads the end of ALTER TYPE or ALTER DOMAIN (what) at k:
// RENAME TO name or OWNER TO role, the forms the two share.
func (r *rewriter) renameOrOwner(ts *TypeStatement, k int, what string) (*TypeStatement, error) {
	switch {
	case r.peek(k, "rename") && r.peek(k+1, "to"):
		ts.Action = TypeRename
	case r.peek(k, "owner") && r.peek(k+1, "to"):
		ts.Action = TypeOwner
	case r.peek(k, "set") && r.peek(k+1, "schema"):
		ts.Action, ts.SetSchema = TypeRename, true
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this form of ALTER %s is not supported", what).WithPosition(r.pos(0))
	}
	var err error
	if ts.NewName, err = r.name(k + 2); err != nil {
		return nil, err
	}
	if k+3 < len(r.toks) {
		return nil, r.syntaxErrorAt(k + 3)
	}
	return ts, nil
}

// renamePair reads "old TO new" at k into Value and NewName, each with
// read (a label's or a name's reader), and returns the index after it.
func (r *rewriter) renamePair(ts *TypeStatement, k int, read func(int) (string, error)) (int, error) {
	var err error
	if ts.Value, err = read(k); err != nil {
		return k, err
	}
	if !r.peek(k+1, "to") {
		return k, r.syntaxErrorAt(k + 1)
	}
	ts.NewName, err = read(k + 2)
	return k + 3, err
}

// stringAt reads a string constant at k.
func (r *rewriter) stringAt(k int) (string, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkString {
		return "", r.syntaxErrorAt(k)
	}
	return r.toks[k].val, nil
}

// createRange reads CREATE TYPE ... AS RANGE's options from the opening
// parenthesis at k: name = value pairs, the subtype a type and the others
// names, as PostgreSQL's DefineRange takes them (42601 for an unknown
// option, one given twice or no subtype).
func (r *rewriter) createRange(ts *TypeStatement, k int) (*TypeStatement, error) {
	ts.Action = TypeCreateRange
	seen := map[string]bool{}
	k, err := r.parenList(k, func(k int) (int, error) {
		opt, err := r.name(k)
		if err != nil {
			return k, err
		}
		if !r.peek(k+1, "=") {
			return k, r.syntaxErrorAt(k + 1)
		}
		if seen[opt] {
			return k, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(r.pos(k))
		}
		seen[opt] = true
		var target *string
		switch opt {
		case "subtype":
			ts.BasePos = r.pos(k + 2)
			typ, udt, next, err := r.parseTypeRef(k + 2)
			ts.Base, ts.BaseName = typ, udt
			return next, err
		case "subtype_opclass":
			target = &ts.Range.SubtypeOpclass
		case "collation":
			target = &ts.Range.Collation
		case "canonical":
			target = &ts.Range.Canonical
		case "subtype_diff":
			target = &ts.Range.SubtypeDiff
		case "multirange_type_name":
			target = &ts.Range.MultirangeTypeName
		default:
			return k, pgerr.New(pgerr.SyntaxError, "type attribute \"%s\" not recognized", opt).WithPosition(r.pos(k))
		}
		if target == &ts.Range.MultirangeTypeName {
			*target, k, err = r.relationName(k + 2)
		} else {
			*target, k, err = r.relationName(k + 2)
		}
		return k, err
	})
	if err != nil {
		return nil, err
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	if !seen["subtype"] {
		return nil, pgerr.New(pgerr.SyntaxError, "type attribute \"subtype\" is required")
	}
	return ts, nil
}
