package ir

import (
	"reflect"
	"sort"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/parser"
)

// sampleStatements is one zero value of every bound statement type.
func sampleStatements() []Statement {
	return []Statement{
		&Query{}, &Insert{}, &Update{}, &Delete{}, &Merge{}, &CreateTable{}, &CreateTableAs{}, &RefreshMatview{}, &DropTable{}, &CreateIndex{}, &DropIndex{},
		&ShowIndexes{}, &CheckTable{}, &Explain{Stmt: &Query{}}, &SetVar{}, &ShowVar{}, &TxnOp{Op: TxnBegin}, &CreateView{},
		&DropView{}, &AlterTable{}, &Truncate{}, &Reindex{}, &Lock{}, &AlterOwner{Table: &catalog.Table{}}, &Analyze{}, &Comment{}, &AddConstraint{}, &DropConstraint{},
		&ValidateConstraint{}, &RenameConstraint{}, &SetConstraints{}, &Extension{}, &SchemaChange{Action: "create"}, &GrantRole{}, &AlterSystem{},
		&CreateRole{}, &AlterRole{}, &DropRole{}, &Grant{}, &AlterDefaultPrivileges{}, &CreateSequence{}, &AlterSequence{}, &DropSequence{},
		&TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.TypeCreateEnum}},
		&RoutineChange{RoutineStatement: &parser.RoutineStatement{Action: parser.RoutineCreate}}, &Call{}, &Do{}, &TriggerChange{TriggerStatement: &parser.TriggerStatement{Table: "t"}},
		&RoutineChange{RoutineStatement: &parser.RoutineStatement{Action: parser.RoutineDrop, Procedure: true}},
		&RoutineChange{RoutineStatement: &parser.RoutineStatement{Action: parser.RoutineGrant, Revoke: true}},
		&TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.TypeAddValue, Names: []string{"t"}}},
		&TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.TypeDrop, Names: []string{"t"}}},
		&TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.TypeCreateDomain, Domain: true, Names: []string{"d"}}},
		&TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.DomainAddCheck, Domain: true, Names: []string{"d"}}},
		&TypeChange{TypeStatement: &parser.TypeStatement{Action: parser.TypeDrop, Domain: true, Names: []string{"d"}}},
		&Database{Stmt: &parser.DatabaseStatement{Action: "create"}}, &Database{Stmt: &parser.DatabaseStatement{Action: "drop"}},
	}
}

// TestEveryStatementSampled parses the package for the types with a Describe
// method: a new statement must join sampleStatements.
func TestEveryStatementSampled(t *testing.T) {
	declared := typesWithMethod(t, "Describe")
	sampled := map[string]bool{}
	for _, s := range sampleStatements() {
		sampled[reflect.TypeOf(s).Elem().Name()] = true
	}
	var missing []string
	for k := range declared {
		if !sampled[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(declared) < 30 {
		t.Errorf("statements without a sample: %v (declared %d)", missing, len(declared))
	}
}

// TestDescriptionsConsistent: a statement that changes the schema writes,
// a DDL statement writes, one that creates names a schema and is DDL, and
// one that needs ownership is DDL; queries and utilities of no write
// change nothing.
func TestDescriptionsConsistent(t *testing.T) {
	for _, s := range sampleStatements() {
		d := s.Describe()
		name := reflect.TypeOf(s).Elem().Name()
		if d.ChangesSchema && !d.Writes {
			t.Errorf("%s changes the schema but does not write", name)
		}
		if d.Class == ClassDDL && !d.Writes {
			t.Errorf("%s is DDL but does not write", name)
		}
		if d.CreatesIn != "" && d.Class != ClassDDL {
			t.Errorf("%s creates in %s but is %s", name, d.CreatesIn, d.Class)
		}
		if (d.Class == ClassQuery || d.Class == ClassUtility || d.Class == ClassTCL) && (d.ChangesSchema || d.Writes) {
			t.Errorf("%s is %s but writes", name, d.Class)
		}
		if s.Kind() == "" {
			t.Errorf("%s has no kind", name)
		}
	}
	if !(&Query{Writes: []*CTE{{}}}).Describe().Writes {
		t.Error("a query with a data-modifying WITH does not write")
	}
	if !(&Explain{Analyze: true, Stmt: &Insert{}}).Describe().Writes {
		t.Error("EXPLAIN ANALYZE INSERT does not write")
	}
}
