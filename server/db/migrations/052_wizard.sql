-- The onboarding wizard of reseller organisations (issue 24).
-- A user can be imported disabled (Enabled = No): such a user cannot sign in.
ALTER TABLE users ADD COLUMN enabled boolean NOT NULL DEFAULT true;
-- The configure-users step maps an organisation user to a user of the services account's company.
ALTER TABLE users ADD COLUMN service_user_id integer REFERENCES users (id) ON DELETE SET NULL;

-- The company (customer) account of a customer organisation: what the billing system knows of it.
CREATE TABLE company_accounts (
  organization_id  integer PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  customer_id      text NOT NULL UNIQUE,
  billing_phone    text NOT NULL DEFAULT '',
  billing_address  jsonb NOT NULL DEFAULT '{}',
  shipping_address jsonb NOT NULL DEFAULT '{}',
  site_address     jsonb NOT NULL DEFAULT '{}',
  active           boolean NOT NULL DEFAULT true
);

-- The services account a reseller confirmed in the wizard (PUT /v1/resellers/{id}/services-account).
CREATE TABLE reseller_services_accounts (
  reseller_id     integer PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  customer_org_id integer NOT NULL REFERENCES company_accounts (organization_id),
  confirmed_at    timestamptz NOT NULL DEFAULT now()
);
