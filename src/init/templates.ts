/**
 * The text of the files `switchboard init` writes, apart from the workflows (copied as they
 * ship in the package's examples/.github/workflows/). Each is valid as written: the
 * manifests pass `validate`, the configuration loads once its variables are set
 * (test/init/).
 */
import { CONFIG_FILE_NAME } from '../config/load-connection.js';
import { NODE_ENGINES, PACKAGE_NAME, VERSION } from '../core/package.js';

/** The folder of manifests the workflows read (their `MANIFESTS` variable). */
export const MANIFESTS_DIR = 'manifests';

/**
 * How a manifests repository installs switchboard, said wherever init tells someone to: from
 * a tarball or a git URL pinned to a commit, whose integrity package-lock.json records. Never
 * `switchboard@<version>`: that name on the public npm registry is not this project's, and
 * whoever publishes it would have their code run next to the apply credentials.
 */
export const INSTALL_COMMAND = `npm install --save-dev ./${PACKAGE_NAME}-${VERSION}.tgz`;

/**
 * package.json of a new manifests repository. It names no switchboard version: a version
 * would be fetched from the public registry (see {@link INSTALL_COMMAND}); `npm install
 * --save-dev` of the tarball or git URL adds the dependency, pinned by package-lock.json.
 */
export function packageJson(name: string): string {
  const pkg = {
    name,
    private: true,
    description: 'Platform configuration as code, planned and applied by switchboard',
    scripts: {
      validate: `switchboard validate ${MANIFESTS_DIR}`,
      plan: `switchboard plan ${MANIFESTS_DIR}`,
      rehearse: `switchboard plan ${MANIFESTS_DIR} --sim`,
    },
    engines: { node: NODE_ENGINES },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** A package name npm accepts, from the repository's folder name. */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '')
    .slice(0, 214);
  return name === '' ? 'platform-manifests' : name;
}

/**
 * switchboard.config.yaml: every setting, each value a `${VAR}` of the variable the
 * workflows set from the repository's secrets. The optional ones are commented out: an
 * unset variable is an error naming the setting.
 */
export function configYaml(): string {
  return `# Where the platform is and how switchboard logs in (see node_modules/${PACKAGE_NAME}/docs/connecting.md).
# Secrets never sit here: \${VAR} is replaced by the environment variable VAR; an unset one is
# an error that names the setting (an optional setting, such as totpSecret, is then left out).
# A SWITCHBOARD_* variable that is set overrides the setting it names. The workflows in .github/workflows/ set these
# variables from the repository's secrets (read-only ones for plan and drift, the apply ones
# from the "production" environment); on your machine, export them or use --sim.
environments:
  production:
    url: \${SWITCHBOARD_URL}                      # {base_url} of the provisioning API
    auth: { token: \${SWITCHBOARD_TOKEN} }        # a machine-to-machine token, or a user:
    # auth: { username: \${SWITCHBOARD_USERNAME}, password: \${SWITCHBOARD_PASSWORD}, totpSecret: \${SWITCHBOARD_TOTP_SECRET} }
    # instance: \${SWITCHBOARD_INSTANCE}          # {draas_instance}; by default the user's profile says
    # caFile: \${SWITCHBOARD_CA_FILE}             # a PEM bundle when a private CA signed the certificate
    # insecure: false                            # true: plain http or no TLS verification (a lab, never production)
    # routingEngine:                             # only with RoutingTable manifests
    #   url: \${SWITCHBOARD_RE_URL}
    #   auth: { token: \${SWITCHBOARD_RE_TOKEN} }  # or { username: \${SWITCHBOARD_RE_USERNAME}, password: \${SWITCHBOARD_RE_PASSWORD} }
    #   caFile: \${SWITCHBOARD_RE_CA_FILE}
`;
}

/** The starter group: an existing group is adopted by name (protected from delete here). */
export function groupYaml(modeline: string): string {
  return `# ${modeline}
# Your group: rename it to the group you manage (switchboard finds it by name), then run
# "npx switchboard plan ${MANIFESTS_DIR}" to see what differs. protect: never deleted or
# replaced from here, whatever the manifests say.
apiVersion: switchboard/v1
kind: Group
metadata:
  name: example-group
  protect: true
spec:
  draasDomain: example.net
`;
}

/** The starter tenant, owned by the starter group. */
export function tenantYaml(modeline: string): string {
  return `# ${modeline}
# One tenant, owned by the group of ../group.yaml. A field left out is not managed.
# Your editor completes and explains every field (see README.md, "Editor").
apiVersion: switchboard/v1
kind: Tenant
metadata:
  name: example-tenant
  group: example-group
spec:
  billingId: T-EXAMPLE
  markup: 0
`;
}

/** What runs leave behind; the last-applied record and the history stay, apply.yml commits them. */
export function gitignore(): string {
  return `node_modules/
# switchboard: local journals and the apply lock stay here; the last-applied record and the
# history of applies (journals and applied plans, committed by the apply workflow) do not
.switchboard/*
!.switchboard/last-applied.*.json
!.switchboard/history/
# what the workflows write at the top of their checkout
/plan.json
/plan.md
`;
}

/** VS Code: the YAML extension maps the manifests to the installed schemas. */
export function vscodeSettings(schemasDir: string): string {
  const settings = {
    'yaml.schemas': {
      [`./${schemasDir}/manifest.schema.json`]: [`${MANIFESTS_DIR}/**/*.yaml`, `${MANIFESTS_DIR}/**/*.yml`],
    },
    'yaml.validate': true,
    'yaml.completion': true,
    'yaml.hover': true,
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

export function vscodeExtensions(): string {
  return `${JSON.stringify({ recommendations: ['redhat.vscode-yaml'] }, null, 2)}\n`;
}

/** The new repository's README: what is where, the first commands, the CI set-up. */
export function readme(): string {
  return `# Platform manifests

The platform's configuration as code: YAML manifests in \`${MANIFESTS_DIR}/\`, planned and applied by
[switchboard](node_modules/${PACKAGE_NAME}/README.md) ${VERSION}, pinned in \`package.json\` and
\`package-lock.json\`.

switchboard is installed from a tarball or a git URL pinned to a commit (\`${INSTALL_COMMAND}\`,
or \`npm install --save-dev "git+https://…/switchboard.git#<commit>"\`), never as
\`${PACKAGE_NAME}@<version>\` from the npm registry: that name there is not this project's. The
workflows run it with \`npx --no-install\` (so does this page), so nothing downloads a package of
that name when switchboard is missing: the command fails instead.

| path | what |
|---|---|
| \`${MANIFESTS_DIR}/\` | the manifests: one group, one tenant to start with |
| \`${CONFIG_FILE_NAME}\` | where the platform is; credentials come from environment variables |
| \`.github/workflows/\` | plan on pull requests, apply on merge, a daily drift check |
| \`.vscode/\` | editor completion, hover help and checks from switchboard's schemas |
| \`.switchboard/\` | the last-applied record and \`history/\` (each apply's journal and plan) the apply workflow commits |

## First steps

\`\`\`sh
${INSTALL_COMMAND}   # unless package.json has it; commit package-lock.json (CI runs npm ci)
npx --no-install switchboard validate ${MANIFESTS_DIR}   # every mistake, with file:line:col; talks to no server
npx --no-install switchboard plan ${MANIFESTS_DIR} --sim # a rehearsal on switchboard's built-in simulator
npx --no-install switchboard plan ${MANIFESTS_DIR}       # against the platform (set the variables of ${CONFIG_FILE_NAME})
\`\`\`

## CI: secrets and the production environment

- Repository secrets (Settings > Secrets and variables > Actions), read by the plan and drift
  workflows: \`SWITCHBOARD_URL\` (\`SWITCHBOARD_INSTANCE\` optional) and a **read-only** platform
  user: \`SWITCHBOARD_READONLY_TOKEN\`, or \`SWITCHBOARD_READONLY_USERNAME\`,
  \`SWITCHBOARD_READONLY_PASSWORD\` and \`SWITCHBOARD_READONLY_TOTP_SECRET\`.
- An environment named \`production\` (Settings > Environments) with **required reviewers** and
  deployment branches limited to the default branch, holding the apply credentials as
  environment secrets: \`SWITCHBOARD_TOKEN\`, or \`SWITCHBOARD_USERNAME\`, \`SWITCHBOARD_PASSWORD\`
  and \`SWITCHBOARD_TOTP_SECRET\`. Only the apply workflow can read them, after an approval.
- A repository secret \`SWITCHBOARD_DIGEST_KEY\` (at least 32 random characters): the key of the
  digests of write-only and sensitive values, read by every job that plans or applies.
- With routing tables: \`SWITCHBOARD_RE_URL\`, and \`SWITCHBOARD_RE_READONLY_*\` /
  \`SWITCHBOARD_RE_*\` credentials alike.
- Optional: a repository secret \`SWITCHBOARD_NOTIFY_URL\`, a Slack, Teams or JSON webhook told
  of drift, refusals and failed applies (unset, nothing is sent).

The details: \`node_modules/${PACKAGE_NAME}/docs/gitops.md\`.

## Editor

Open the folder in VS Code and accept the recommended YAML extension: the manifests are
checked against \`node_modules/${PACKAGE_NAME}/schemas/\` (after \`npm install\`) as you type, with
completion and a description of every field. Other editors using yaml-language-server read
the \`# yaml-language-server: $schema=…\` line at the top of each manifest.
`;
}
