SELECT pg_get_userbyid(d.defaclrole), coalesce(n.nspname, '-'), d.defaclobjtype, array_to_string(d.defaclacl, ',')
FROM pg_default_acl d LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace ORDER BY 2, 3;
SELECT has_table_privilege('acl24_ro', 'app.t', 'SELECT'), has_table_privilege('acl24_ro', 'app.t', 'INSERT');
SELECT * FROM app.t;
