/**
 * Token shapes that announce themselves by a vendor's prefix, one row per vendor with its source, for the
 * 'vendor-prefixed token' rule (recovery/redact-rules-tokens.ts). The tails are the vendors' own lengths or a
 * lower bound, so a word that merely starts like a prefix (`sk-ip`, `key-value`) stays. A random token without a
 * prefix is the 'token-shaped string' rule's (recovery/redact-entropy.ts). Pure: no imports.
 */

/**
 * One vendor's token shape: `pattern` and `hint` are regular-expression sources; every match of `pattern` contains
 * a match of `hint` (the rule's precheck).
 */
export interface VendorToken {
  readonly name: string;
  readonly source: string;
  readonly pattern: string;
  readonly hint: string;
}

const GITLEAKS = 'gitleaks config/gitleaks.toml, rule';

export const VENDOR_TOKENS: readonly VendorToken[] = Object.freeze([
  {
    name: 'OpenAI / Anthropic key',
    source: `${GITLEAKS} openai-api-key, anthropic-api-key`,
    pattern: 'sk-[A-Za-z0-9_-]{12,}',
    hint: 'sk-',
  },
  {
    name: 'GitHub token',
    source: 'GitHub Docs, "About authentication to GitHub", token formats',
    pattern: 'gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}',
    hint: 'gh[pousr]_|github_pat_',
  },
  {
    name: 'Slack token',
    source: 'Slack API docs, "Token types"',
    pattern: 'x(?:ox[abposre]|app)-[A-Za-z0-9-]{8,}',
    hint: 'xox|xapp-',
  },
  // With the secret access key that follows it (40 characters of base64: AWS General Reference, "Understanding and
  // getting your AWS credentials": `AKIAIOSFODNN7EXAMPLE` / `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), as a signing
  // error quotes the pair ("signing with AKIA… / wJalr… failed").
  {
    name: 'AWS access key id',
    source: 'AWS IAM User Guide, "Unique identifiers" (prefixes)',
    pattern:
      '(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\\b(?:[ \\t]{0,3}[/:,;|]?[ \\t]{0,3}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=]))?',
    hint: 'AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA',
  },
  { name: 'Google API key', source: `${GITLEAKS} gcp-api-key`, pattern: 'AIza[0-9A-Za-z_-]{30,}', hint: 'AIza' },
  {
    name: 'Google OAuth token or client secret',
    source: 'Google Identity docs (ya29. access, 1//0 refresh, GOCSPX- client secret)',
    pattern: 'ya29\\.[0-9A-Za-z_-]{10,}|1\\/\\/0[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}',
    hint: 'ya29\\.|1\\/\\/0|GOCSPX-',
  },
  {
    name: 'Stripe key or webhook secret',
    source: 'Stripe docs, "API keys" and "Check the webhook signatures"',
    pattern: '(?:sk|rk|pk|whsec)_(?:live|test)_[0-9A-Za-z]{8,}|whsec_[A-Za-z0-9+/=]{16,}',
    hint: '_live_|_test_|whsec_',
  },
  {
    name: 'GitLab token',
    source: 'GitLab docs, "Token prefixes"',
    pattern: 'gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent)-[0-9A-Za-z_-]{16,}',
    hint: 'gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent)-',
  },
  { name: 'npm token', source: `${GITLEAKS} npm-access-token`, pattern: 'npm_[A-Za-z0-9]{30,}', hint: 'npm_' },
  {
    name: 'SendGrid key',
    source: `${GITLEAKS} sendgrid-api-token`,
    pattern: 'SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}',
    hint: 'SG\\.',
  },
  {
    name: 'Hugging Face token',
    source: `${GITLEAKS} huggingface-access-token`,
    pattern: 'hf_[A-Za-z0-9]{30,}',
    hint: 'hf_',
  },
  {
    name: 'Mailgun key',
    source: `${GITLEAKS} mailgun-private-api-token`,
    pattern: 'key-[0-9a-z]{32}\\b',
    hint: 'key-',
  },
  {
    name: 'Shopify token',
    source: `${GITLEAKS} shopify-access-token and siblings`,
    pattern: 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}',
    hint: 'shp',
  },
  {
    name: 'DigitalOcean token',
    source: `${GITLEAKS} digitalocean-pat and siblings`,
    pattern: 'do[opr]_v1_[a-f0-9]{64}',
    hint: '_v1_',
  },
  {
    name: 'PyPI token',
    source: `${GITLEAKS} pypi-upload-token`,
    pattern: 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}',
    hint: 'pypi-',
  },
  {
    name: 'Databricks token',
    source: `${GITLEAKS} databricks-api-token`,
    pattern: 'dapi[a-f0-9]{32}\\b',
    hint: 'dapi',
  },
  {
    name: 'Postman key',
    source: `${GITLEAKS} postman-api-token`,
    pattern: 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}',
    hint: 'PMAK-',
  },
  { name: 'Linear key', source: `${GITLEAKS} linear-api-key`, pattern: 'lin_api_[a-zA-Z0-9]{40}', hint: 'lin_api_' },
  {
    name: 'Grafana token',
    source: `${GITLEAKS} grafana-service-account-token, grafana-cloud-api-token`,
    pattern: 'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}',
    hint: 'glsa_|glc_',
  },
  {
    name: 'Vault token',
    source: 'HashiCorp Vault docs, "Tokens" (hvs., hvb. prefixes)',
    pattern: 'hv[sb]\\.[A-Za-z0-9_-]{24,}',
    hint: 'hv[sb]\\.',
  },
  {
    name: 'age secret key',
    source: `${GITLEAKS} age-secret-key`,
    pattern: 'AGE-SECRET-KEY-1[0-9A-Z]{58}',
    hint: 'AGE-SECRET-KEY-',
  },
  {
    name: 'LLM provider key',
    source: 'Groq (gsk_), xAI (xai-), Perplexity (pplx-), Replicate (r8_) API docs',
    pattern: '(?:gsk_|xai-|pplx-|r8_)[A-Za-z0-9]{30,}',
    hint: 'gsk_|xai-|pplx-|r8_',
  },
  { name: 'Twilio API key', source: `${GITLEAKS} twilio-api-key`, pattern: 'SK[0-9a-fA-F]{32}\\b', hint: 'SK' },
  {
    name: 'Sentry token',
    source: `${GITLEAKS} sentry-org-token, sentry-user-token`,
    pattern: 'sntry[su]_[A-Za-z0-9+/=_]{30,}',
    hint: 'sntry',
  },
  {
    name: 'Atlassian token',
    source: `${GITLEAKS} atlassian-api-token`,
    pattern: 'ATATT3[A-Za-z0-9_=-]{100,}',
    hint: 'ATATT3',
  },
  {
    name: 'Telegram bot token',
    source: `${GITLEAKS} telegram-bot-api-token`,
    pattern: '\\d{8,10}:AA[A-Za-z0-9_-]{32,}',
    hint: ':AA',
  },
  {
    name: 'Notion token',
    source: 'Notion API docs, "Authorization" (ntn_, secret_ internal integration tokens)',
    pattern: 'ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}\\b',
    hint: 'ntn_|secret_',
  },
  { name: 'Supabase token', source: `${GITLEAKS} supabase-service-key`, pattern: 'sbp_[a-f0-9]{40}', hint: 'sbp_' },
]);
