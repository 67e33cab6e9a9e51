package clients

import "testing"

// TestDjangoMigrate runs testdata/python/django_client.py: Django 3.2's
// `migrate` of its built-in apps (auth, contenttypes, sessions, admin)
// with the postgresql backend, then the ORM: a user and a group, a
// many-to-many, a refused duplicate username (23505), an admin log entry.
// It runs in a database of its own on PostgreSQL (E2E_POSTGRES).
//
// The migrations add UNIQUE and FOREIGN KEY constraints with ALTER TABLE
// ... ADD CONSTRAINT (the foreign keys DEFERRABLE INITIALLY DEFERRED).
func TestDjangoMigrate(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	requirePythonModule(t, "django", "python3-django")
	c := newCatalogTarget(t)
	runClient(t, "testdata/python", nil, debianPython, "django_client.py", c.host, c.port, c.user, c.db)
}
