"""Django (Debian's 3.2) against zproxy or PostgreSQL: issue 15.

Usage: python3 django_client.py HOST PORT USER DBNAME

Configures Django in the process (no project directory) with the
postgresql backend (psycopg2) and its built-in apps auth, contenttypes,
sessions and admin, runs `migrate` (CREATE TABLE with SERIAL keys, UNIQUE
and FOREIGN KEY constraints added by ALTER TABLE ... DEFERRABLE INITIALLY
DEFERRED, indexes, ALTER COLUMN changes, all in transactions), then uses
the ORM: creates a user and a group, queries them back, and writes an admin
log entry (a foreign key to the user). Prints one line per check, then
PASS; exits 1 at the first mismatch.
"""

import sys

import django
from django.conf import settings

from checks import check, fail


def main():
    host, port, user, dbname = sys.argv[1:5]
    settings.configure(
        DATABASES={"default": {
            "ENGINE": "django.db.backends.postgresql",
            "HOST": host, "PORT": port, "USER": user, "NAME": dbname,
            "OPTIONS": {"connect_timeout": 10},
        }},
        INSTALLED_APPS=[
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "django.contrib.sessions",
            "django.contrib.admin",
            "django.contrib.messages",
        ],
        USE_TZ=True,
        SECRET_KEY="zproxy-e2e-not-secret",
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],  # fast
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    )
    django.setup()

    from django.core.management import call_command
    from django.db import IntegrityError, connection, transaction

    call_command("migrate", verbosity=1, interactive=False)
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM django_migrations WHERE app IN ('auth', 'contenttypes', 'sessions', 'admin')")
        applied = cur.fetchone()[0]
    # Django 3.2: auth 12, contenttypes 2, sessions 1, admin 3.
    check("migrations applied", applied, 18)
    # A second migrate finds nothing to do.
    call_command("migrate", verbosity=0, interactive=False)

    from django.contrib.admin.models import ADDITION, LogEntry
    from django.contrib.auth.models import Group, Permission, User
    from django.contrib.contenttypes.models import ContentType

    check("permissions created by the post-migrate signal", Permission.objects.filter(codename="add_user").count(), 1)
    alice = User.objects.create_user("alice", "alice@example.com", "s3cret")
    check("the user's key", alice.pk, 1)
    got = User.objects.get(username="alice")
    check("user read back", (got.email, got.is_active, got.check_password("s3cret")), ("alice@example.com", True, True))
    editors = Group.objects.create(name="editors")
    editors.permissions.add(Permission.objects.get(codename="change_user"))
    alice.groups.add(editors)
    check("many-to-many through auth_user_groups", list(User.objects.filter(groups__name="editors").values_list("username", flat=True)), ["alice"])
    check("permission through the group", User.objects.get(pk=alice.pk).has_perm("auth.change_user"), True)

    try:
        with transaction.atomic():
            User.objects.create_user("alice", "other@example.com", "x")
        fail("a second alice: no IntegrityError")
    except IntegrityError as e:
        check("unique username", e.__cause__.pgcode, "23505")
    check("users after the refused duplicate", User.objects.count(), 1)

    LogEntry.objects.log_action(alice.pk, ContentType.objects.get_for_model(User).pk, alice.pk, "alice", ADDITION)
    check("admin log entry joined to its user", list(LogEntry.objects.filter(user__username="alice").values_list("object_repr", flat=True)), ["alice"])
    alice.delete()
    check("deleting the user cascades to its log entries", LogEntry.objects.count(), 0)

    # inspectdb reads the schema back from the catalogs (introspection of
    # columns, primary keys, unique and foreign-key constraints) and writes
    # models: auth_user_groups' foreign keys and its unique pair come back.
    import io
    out = io.StringIO()
    call_command("inspectdb", "auth_user_groups", "auth_user", stdout=out)
    models = out.getvalue()
    for want in ("class AuthUserGroups(models.Model):", "user = models.ForeignKey('AuthUser', models.DO_NOTHING)",
                 "group = models.ForeignKey('AuthGroup', models.DO_NOTHING)", "unique_together = (('user', 'group'),)",
                 "username = models.CharField(unique=True, max_length=150)"):
        if want not in models:
            fail("inspectdb lacks %r:\n%s" % (want, models))
    print("PASS", flush=True)


main()
