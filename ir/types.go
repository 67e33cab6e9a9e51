package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/parser"
)

// TypeChange is CREATE TYPE ... AS ENUM, ALTER TYPE or DROP TYPE: the
// executor applies the parsed statement to the catalog as it is when the
// change commits (executor.ChangeType).
type TypeChange struct {
	*parser.TypeStatement
}

// Kind implements Statement.
func (*TypeChange) Kind() string { return "type" }

// Describe implements Statement: creating a type needs CREATE on its
// schema; changing or dropping one, its ownership.
func (x *TypeChange) Describe() Description {
	switch x.Action {
	case parser.TypeCreateEnum:
		d := ddl()
		d.CreatesIn = catalog.PublicSchema
		return d.tagged("CREATE TYPE")
	case parser.TypeDrop:
		return ddl(refs(ObjectType, x.Names...)...).tagged("DROP TYPE")
	}
	return ddl(refs(ObjectType, x.Names...)...).tagged("ALTER TYPE")
}
