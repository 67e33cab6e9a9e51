package ir

import (
	"reflect"
	"strings"
)

// Format renders a logical plan as an indented tree, for tests and
// debugging: each relation's kind and output columns with their types,
// then the expressions it evaluates, then its inputs. It is written over
// the traversal methods alone, so a new relation kind prints without
// touching it.
func Format(r Rel) string {
	var b strings.Builder
	formatRel(&b, r, 0)
	return b.String()
}

func formatRel(b *strings.Builder, r Rel, depth int) {
	pad := strings.Repeat("  ", depth)
	b.WriteString(pad + reflect.TypeOf(r).Elem().Name() + " [")
	for i, c := range r.Columns() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + c.Type.String())
	}
	b.WriteString("]\n")
	var es []string
	for _, e := range r.Expressions() {
		if e != nil {
			es = append(es, e.String())
		}
	}
	if len(es) > 0 {
		b.WriteString(pad + "  = " + strings.Join(es, ", ") + "\n")
	}
	for _, in := range r.Inputs() {
		formatRel(b, in, depth+1)
	}
}
