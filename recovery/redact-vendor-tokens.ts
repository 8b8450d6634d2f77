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

/** A row of `VENDOR_TOKENS`. */
const token = (name: string, source: string, pattern: string, hint: string): VendorToken => ({
  name,
  source,
  pattern,
  hint,
});

/** One row a vendor: its name, the source of its shape, `pattern`, `hint`. */
// prettier-ignore
export const VENDOR_TOKENS: readonly VendorToken[] = Object.freeze([
  token('OpenAI / Anthropic key', `${GITLEAKS} openai-api-key, anthropic-api-key`, 'sk-[A-Za-z0-9_-]{12,}', 'sk-'),
  token('GitHub token', 'GitHub Docs, "About authentication to GitHub", token formats',
    'gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}', 'gh[pousr]_|github_pat_'),
  token('Slack token', 'Slack API docs, "Token types"', 'x(?:ox[abposre]|app)-[A-Za-z0-9-]{8,}', 'xox|xapp-'),
  // With the secret access key that follows it (40 characters of base64: AWS General Reference, "Understanding and
  // getting your AWS credentials": `AKIAIOSFODNN7EXAMPLE` / `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), as a signing
  // error quotes the pair ("signing with AKIA… / wJalr… failed").
  token('AWS access key id', 'AWS IAM User Guide, "Unique identifiers" (prefixes)',
    '(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\\b(?:[ \\t]{0,3}[/:,;|]?[ \\t]{0,3}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=]))?', 'AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA'),
  token('Google API key', `${GITLEAKS} gcp-api-key`, 'AIza[0-9A-Za-z_-]{30,}', 'AIza'),
  token('Google OAuth token or client secret', 'Google Identity docs (ya29. access, 1//0 refresh, GOCSPX- client secret)',
    'ya29\\.[0-9A-Za-z_-]{10,}|1\\/\\/0[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,}', 'ya29\\.|1\\/\\/0|GOCSPX-'),
  token('Stripe key or webhook secret', 'Stripe docs, "API keys" and "Check the webhook signatures"',
    '(?:sk|rk|pk|whsec)_(?:live|test)_[0-9A-Za-z]{8,}|whsec_[A-Za-z0-9+/=]{16,}', '_live_|_test_|whsec_'),
  token('GitLab token', 'GitLab docs, "Token prefixes"',
    'gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent)-[0-9A-Za-z_-]{16,}', 'gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent)-'),
  token('npm token', `${GITLEAKS} npm-access-token`, 'npm_[A-Za-z0-9]{30,}', 'npm_'),
  token('SendGrid key', `${GITLEAKS} sendgrid-api-token`, 'SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}', 'SG\\.'),
  token('Hugging Face token', `${GITLEAKS} huggingface-access-token`, 'hf_[A-Za-z0-9]{30,}', 'hf_'),
  token('Mailgun key', `${GITLEAKS} mailgun-private-api-token`, 'key-[0-9a-z]{32}\\b', 'key-'),
  token('Shopify token', `${GITLEAKS} shopify-access-token and siblings`, 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}', 'shp'),
  token('DigitalOcean token', `${GITLEAKS} digitalocean-pat and siblings`, 'do[opr]_v1_[a-f0-9]{64}', '_v1_'),
  token('PyPI token', `${GITLEAKS} pypi-upload-token`, 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}', 'pypi-'),
  token('Databricks token', `${GITLEAKS} databricks-api-token`, 'dapi[a-f0-9]{32}\\b', 'dapi'),
  token('Postman key', `${GITLEAKS} postman-api-token`, 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}', 'PMAK-'),
  token('Linear key', `${GITLEAKS} linear-api-key`, 'lin_api_[a-zA-Z0-9]{40}', 'lin_api_'),
  token('Grafana token', `${GITLEAKS} grafana-service-account-token, grafana-cloud-api-token`,
    'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}', 'glsa_|glc_'),
  token('Vault token', 'HashiCorp Vault docs, "Tokens" (hvs., hvb. prefixes)',
    'hv[sb]\\.[A-Za-z0-9_-]{24,}', 'hv[sb]\\.'),
  token('age secret key', `${GITLEAKS} age-secret-key`, 'AGE-SECRET-KEY-1[0-9A-Z]{58}', 'AGE-SECRET-KEY-'),
  token('LLM provider key', 'Groq (gsk_), xAI (xai-), Perplexity (pplx-), Replicate (r8_) API docs',
    '(?:gsk_|xai-|pplx-|r8_)[A-Za-z0-9]{30,}', 'gsk_|xai-|pplx-|r8_'),
  token('Twilio API key', `${GITLEAKS} twilio-api-key`, 'SK[0-9a-fA-F]{32}\\b', 'SK'),
  token('Sentry token', `${GITLEAKS} sentry-org-token, sentry-user-token`, 'sntry[su]_[A-Za-z0-9+/=_]{30,}', 'sntry'),
  token('Atlassian token', `${GITLEAKS} atlassian-api-token`, 'ATATT3[A-Za-z0-9_=-]{100,}', 'ATATT3'),
  token('Telegram bot token', `${GITLEAKS} telegram-bot-api-token`, '\\d{8,10}:AA[A-Za-z0-9_-]{32,}', ':AA'),
  token('Notion token', 'Notion API docs, "Authorization" (ntn_, secret_ internal integration tokens)',
    'ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}\\b', 'ntn_|secret_'),
  token('Supabase token', `${GITLEAKS} supabase-service-key`, 'sbp_[a-f0-9]{40}', 'sbp_'),
]);
