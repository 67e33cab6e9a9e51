package clients

import (
	"os/exec"
	"testing"
)

// TestActiveRecord runs testdata/ruby/activerecord_check.rb: ActiveRecord
// 6.1 (Debian's ruby-activerecord, with ruby-pg) connects as Rails does
// (IntervalStyle iso_8601, its type-map query with ::regprocedure), runs a
// migration with a unique index and a foreign key, dumps the schema, and
// does CRUD, includes, a uniqueness validation, transactions rolled back
// and committed, grouping and a dependent destroy.
func TestActiveRecord(t *testing.T) {
	ruby := requireTool(t, "ruby", "apt-get install -y ruby ruby-activerecord ruby-pg")
	if err := exec.Command(ruby, "-e", `require "active_record"; require "pg"`).Run(); err != nil {
		missingClient(t, "ActiveRecord or the pg gem is not installed (apt-get install -y ruby-activerecord ruby-pg)")
	}
	s := startServer(t)
	runClient(t, "testdata/ruby", nil, ruby, "activerecord_check.rb", s.host, s.port)
}
