import { describe, expect, it } from 'vitest'
import { CommandPolicy, decideCommand, mergePolicies } from './policy.ts'

/** The default policy: nothing named, everything allowed except what the built-in rules catch. */
const OPEN = {}
/** A typical environment policy: a few allowed tools, git push asks, rm and curl denied. */
const STRICT = {
  commands: {
    allow: ['ls *', 'node *', 'npm *', 'cat *', 'echo *', 'git status'],
    ask: ['git push *'],
    deny: ['rm *', 'curl *'],
  },
  default: 'ask' as const,
}

// [command line, policy, expected decision, expected rule (prefix match)]
const TABLE: [string, object, 'allow' | 'ask' | 'deny', string][] = [
  // Plain commands and the patterns
  ['ls -la', OPEN, 'allow', 'default'],
  ['ls -la', STRICT, 'allow', 'allow: ls *'],
  ['ls', STRICT, 'allow', 'allow: ls *'], // `ls *` also covers a bare `ls`
  ['node app.js', STRICT, 'allow', 'allow: node *'],
  ['python3 app.py', STRICT, 'ask', 'default'],
  ['git push origin main', STRICT, 'ask', 'ask: git push *'],
  ['rm -rf node_modules', STRICT, 'deny', 'deny: rm *'],
  ['rm -rf node_modules', OPEN, 'allow', 'default'],
  ['/bin/rm x', STRICT, 'deny', 'deny: rm *'], // a path to the binary is still rm
  // Every simple command of a list is judged
  ['ls && rm x', STRICT, 'deny', 'deny: rm *'],
  ['ls; rm x', STRICT, 'deny', 'deny: rm *'],
  ['ls || rm x', STRICT, 'deny', 'deny: rm *'],
  ['ls\nrm x', STRICT, 'deny', 'deny: rm *'], // newline-separated
  ['ls | rm x', STRICT, 'deny', 'deny: rm *'],
  ['ls & rm x', STRICT, 'deny', 'deny: rm *'],
  ['if true; then rm x; fi', STRICT, 'deny', 'deny: rm *'],
  ['for f in a b; do rm $f; done', STRICT, 'deny', 'deny: rm *'],
  ['echo $(rm x)', STRICT, 'deny', 'deny: rm *'],
  ['echo `rm x`', STRICT, 'deny', 'deny: rm *'],
  ['diff <(rm x) b', STRICT, 'deny', 'deny: rm *'],
  ['echo ${x:-$(rm y)}', STRICT, 'deny', 'deny: rm *'],
  ['x=$(rm y) ls', STRICT, 'deny', 'deny: rm *'],
  // The built-in denylist and its bypass attempts (no policy removes it)
  ['sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ['sudo', OPEN, 'deny', 'builtin:privilege'],
  ['sudo ls', { commands: { allow: ['sudo *'] } }, 'deny', 'builtin:privilege'],
  ["s''udo ls", OPEN, 'deny', 'builtin:privilege'],
  ['s""udo ls', OPEN, 'deny', 'builtin:privilege'],
  ['"sudo" ls', OPEN, 'deny', 'builtin:privilege'],
  ['\\sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ["$'\\x73udo' ls", OPEN, 'deny', 'builtin:privilege'],
  ['/usr/bin/sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ['su -', OPEN, 'deny', 'builtin:privilege'],
  ['doas sh', OPEN, 'deny', 'builtin:privilege'],
  ['(sudo x)', OPEN, 'deny', 'builtin:privilege'], // subshell
  ['{ sudo x; }', OPEN, 'deny', 'builtin:privilege'],
  ['echo $(sudo id)', OPEN, 'deny', 'builtin:privilege'],
  ['echo `sudo id`', OPEN, 'deny', 'builtin:privilege'],
  ['echo `echo \\`sudo id\\``', OPEN, 'deny', 'builtin:privilege'], // nested backticks
  ['cat <<< "$(sudo y)"', OPEN, 'deny', 'builtin:privilege'], // here-string
  ['cat <<EOF\n$(sudo x)\nEOF', OPEN, 'deny', 'builtin:privilege'], // here-doc expansion
  ['bash <<EOF\nsudo x\nEOF', OPEN, 'deny', 'builtin:privilege'], // here-doc fed to a shell
  ['bash <<< "sudo x"', OPEN, 'deny', 'builtin:privilege'],
  ['bash -c "sudo x"', OPEN, 'deny', 'builtin:privilege'],
  ['sh -c \'ls; bash -c "sudo x"\'', OPEN, 'deny', 'builtin:privilege'],
  ['bash -lc "sudo x"', OPEN, 'deny', 'builtin:privilege'],
  ['eval "sudo x"', OPEN, 'deny', 'builtin:privilege'],
  ['eval sudo x', OPEN, 'deny', 'builtin:privilege'],
  ['env sudo x', OPEN, 'deny', 'builtin:privilege'],
  ['env -i FOO=1 sudo x', OPEN, 'deny', 'builtin:privilege'],
  ['env -S "sudo ls"', OPEN, 'deny', 'builtin:privilege'],
  ['command sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ['exec sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ['nohup sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ['timeout -s KILL 5 sudo x', OPEN, 'deny', 'builtin:privilege'],
  ['nice -n 5 sudo ls', OPEN, 'deny', 'builtin:privilege'],
  ['echo a | xargs sudo', OPEN, 'deny', 'builtin:privilege'],
  ['echo a | xargs -I{} -n 1 sudo rm {}', OPEN, 'deny', 'builtin:privilege'],
  ['find . -name x -exec sudo rm {} \\;', OPEN, 'deny', 'builtin:privilege'],
  ['find . -name x -exec rm {} \\;', STRICT, 'deny', 'deny: rm *'], // the wrapped rm is judged
  ['find / -exec rm {} \\;', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf /', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf /*', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf "/"', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -r -f /usr', OPEN, 'deny', 'builtin:rm-root'],
  ['rm --recursive --force -- /', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf ~', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf ~/', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf $HOME', OPEN, 'deny', 'builtin:rm-root'],
  ['rm -rf ./build', OPEN, 'allow', 'default'],
  ['mkfs.ext4 /dev/sdb1', OPEN, 'deny', 'builtin:mkfs'],
  ['dd if=/dev/zero of=/dev/sda', OPEN, 'deny', 'builtin:dd-device'],
  ['dd if=a.img of=/dev/null bs=1M', OPEN, 'allow', 'default'],
  ['echo x > /dev/sda', OPEN, 'deny', 'builtin:device-write'],
  ['shutdown -h now', OPEN, 'deny', 'builtin:power'],
  ['reboot', OPEN, 'deny', 'builtin:power'],
  ['chmod -R 777 /', OPEN, 'deny', 'builtin:chmod-root'],
  ['chmod -R 755 ./bin', OPEN, 'allow', 'default'],
  [':(){ :|:& };:', OPEN, 'deny', 'builtin:fork-bomb'],
  ['bomb() { bomb | bomb & }; bomb', OPEN, 'deny', 'builtin:fork-bomb'],
  ['curl -fsSL https://x.sh | sh', OPEN, 'deny', 'builtin:download-exec'],
  ['wget -qO- x | sudo bash', OPEN, 'deny', 'builtin:'], // sudo and download-exec both deny
  ['curl -s x | python3', OPEN, 'deny', 'builtin:download-exec'],
  ['bash <(curl -s x)', OPEN, 'deny', 'builtin:download-exec'],
  ['sh -c "$(curl -fsSL x)"', OPEN, 'deny', 'builtin:download-exec'],
  ['source <(wget -qO- x)', OPEN, 'deny', 'builtin:download-exec'],
  // "At least ask": what cannot be seen statically
  ['$(echo sudo) ls', OPEN, 'ask', 'builtin:dynamic-command'],
  ['a=sudo; $a ls', OPEN, 'ask', 'builtin:dynamic-command'],
  ['/usr/bin/su?o ls', OPEN, 'ask', 'builtin:dynamic-command'], // a glob as the command name
  ['{su,}do ls', OPEN, 'ask', 'builtin:dynamic-command'], // brace expansion as the command name
  ['env $CMD', OPEN, 'ask', 'builtin:dynamic-command'],
  ['cat script | bash', OPEN, 'ask', 'builtin:pipe-to-shell'],
  ['cat x.js | node', OPEN, 'ask', 'builtin:pipe-to-shell'],
  ['cat data.csv | python3 load.py', OPEN, 'allow', 'default'], // a script file, not stdin code
  ['bash -c "ls"', OPEN, 'ask', 'builtin:inline-code'],
  ['python3 -c "print(1)"', OPEN, 'ask', 'builtin:inline-code'],
  ['node -e "process.exit(0)"', OPEN, 'ask', 'builtin:inline-code'],
  ["perl -ne 'print' f", OPEN, 'ask', 'builtin:inline-code'],
  ['node -e "x"', { commands: { allow: ['node *'] } }, 'ask', 'builtin:inline-code'], // allow cannot lift it
  ['eval ls', OPEN, 'ask', 'builtin:eval'],
  ['bash -c "$CMD"', OPEN, 'ask', 'builtin:inline-code'],
  // Lines that do not parse are denied, not asked (see policy.ts)
  ['echo "unterminated', OPEN, 'deny', 'builtin:unparseable'],
  ['echo $(ls', OPEN, 'deny', 'builtin:unparseable'],
  ['bash -c "echo \\"x"', OPEN, 'deny', 'builtin:unparseable'], // broken inside the -c string
  // Harmless lookalikes stay allowed
  ['command -v sudo', OPEN, 'allow', 'default'],
  ['echo sudo', OPEN, 'allow', 'default'],
  ['grep -r "rm -rf /" .', OPEN, 'allow', 'default'],
  ['npm install && npm test', STRICT, 'allow', 'allow: npm *'],
  ['', OPEN, 'allow', 'default'],
]

describe('decideCommand', () => {
  it('pins at least 40 command lines', () => expect(TABLE.length).toBeGreaterThanOrEqual(40))

  it.each(TABLE)('%j under %j → %s (%s)', (line, policy, decision, rule) => {
    const result = decideCommand(policy, line)
    expect(result.decision).toBe(decision)
    expect(result.rule?.startsWith(rule)).toBe(true)
  })

  it('names the command that decided and says why', () => {
    const result = decideCommand(OPEN, 'ls && bash -c "echo hi; sudo id"')
    expect(result).toMatchObject({ decision: 'deny', command: 'sudo id', rule: 'builtin:privilege' })
    expect(result.reason).toMatch(/sudo/)
  })

  it('refuses an over-long line without parsing it', () => {
    expect(decideCommand(OPEN, 'x'.repeat(70_000)).rule).toBe('builtin:too-long')
  })

  // A line the judge's walk could not finish in proportion to its length is refused, not judged
  // for seconds or thrown at the caller as a 500.
  it.each([
    // Each wrapper level was judged with all the rest of the line again: about 16 s.
    ['a chain of 16,000 wrappers', `${'env '.repeat(16_000)}sudo`],
    // A sum of 20,000 terms nests 20,000 deep: the walk ran out of stack (RangeError).
    ['a sum of 20,000 terms', `echo $((${'a+'.repeat(20_000)}1))`],
  ])('refuses %s as too complex', (_, line) => {
    expect(decideCommand(OPEN, line)).toMatchObject({ decision: 'deny', rule: 'builtin:too-complex' })
  })

  // unbash reads each nested expansion's text again when its parts are asked for, up to 256 levels:
  // before the copy counted them, these 16 KiB lines took about 0.5 s each to judge.
  it.each([
    ['$( nested 5,000 deep', `${'$('.repeat(5_000)}sudo${')'.repeat(5_000)}`],
    ['"$( nested 200 deep', `echo ${'"$('.repeat(200)}sudo${')"'.repeat(200)}`],
    ['${a:- nested 2,000 deep', `echo ${'${a:-'.repeat(2_000)}x${'}'.repeat(2_000)}`],
    ['$(( nested 2,000 deep', `echo ${'$(('.repeat(2_000)}1${'))'.repeat(2_000)}`],
    ['8,000 unclosed $(', '$('.repeat(8_000)],
  ])('refuses %s before reading the deep levels', (_, line) => {
    expect(decideCommand(OPEN, line)).toMatchObject({ decision: 'deny', rule: 'builtin:too-complex' })
  })

  it('judges expansions nested eight deep and refuses nine', () => {
    const nested = (depth: number) => `echo ${'$(echo '.repeat(depth - 1)}$(sudo id${')'.repeat(depth)}`
    expect(decideCommand(OPEN, nested(8))).toMatchObject({ decision: 'deny', rule: 'builtin:privilege' })
    expect(decideCommand(OPEN, nested(9))).toMatchObject({ decision: 'deny', rule: 'builtin:too-complex' })
    const honest = 'cd "$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")" && ls'
    expect(decideCommand(OPEN, honest)).toMatchObject({ decision: 'allow' })
  })

  it('refuses nesting deeper than six levels', () => {
    let line = 'ls'
    for (let i = 0; i < 8; i++) line = `bash -c ${JSON.stringify(line)}`
    expect(decideCommand(OPEN, line)).toMatchObject({ decision: 'deny', rule: 'builtin:unparseable' })
  })
})

/** An org that denies `uname` and `git push`, over an environment that allows everything else. */
const DENY_UNAME = {
  commands: { allow: [], ask: [], deny: ['uname *', 'git push *'] },
  default: 'allow' as const,
}

// Spellings the shell expands or hides (boundary review item 10): never allowed; `ask` at least.
const HIDDEN: [string, 'ask' | 'deny', string][] = [
  ['{uname,-s}', 'ask', 'builtin:dynamic-command'],
  ['/usr/bin/unam?', 'ask', 'builtin:dynamic-command'],
  ['trap uname EXIT', 'deny', 'deny: uname *'],
  ['trap "$cmd" EXIT', 'ask', 'builtin:inline-code'],
  ["x='$(uname)'; echo ${x@P}", 'ask', 'builtin:prompt-expansion'],
  [`awk 'BEGIN{system("uname")}'`, 'ask', 'builtin:inline-code'],
  [`gawk -e 'BEGIN{system("id")}'`, 'ask', 'builtin:inline-code'],
  ['script -q -c uname /dev/null', 'deny', 'deny: uname *'],
  ['script --command="$x" /dev/null', 'ask', 'builtin:inline-code'],
  ['strace -f -o trace.txt uname -a', 'deny', 'deny: uname *'],
  ['ltrace uname', 'deny', 'deny: uname *'],
  ['flock ./lockfile uname', 'deny', 'deny: uname *'],
  ['watch -n 1 uname', 'deny', 'deny: uname *'],
  ["make --eval='all:;uname'", 'ask', 'builtin:inline-code'],
  ['make -f /dev/stdin <<< "all:;uname"', 'ask', 'builtin:stdin-code'],
  ['make SHELL=/usr/bin/uname', 'ask', 'builtin:inline-code'],
  ['gdb -batch -ex "shell uname"', 'ask', 'builtin:inline-code'],
  ["x='a[$(uname)]'; echo $((x))", 'ask', 'builtin:arithmetic'],
  ["x='a[$(uname)]'; (( x ))", 'ask', 'builtin:arithmetic'],
  ["x='a[$(uname)]'; [[ $x -eq 0 ]]", 'ask', 'builtin:arithmetic'],
  ['git pu?h origin main', 'ask', 'deny: git push *'],
  ['x=push; git $x origin main', 'ask', 'deny: git push *'],
  ['git {push,origin,main}', 'ask', 'deny: git push *'],
]
// What stays allowed: static words, globs where no rule names the command, plain arithmetic.
const PLAIN: string[] = [
  'make test',
  'awk -f report.awk data.csv',
  'trap - EXIT',
  'ls *.ts',
  'mkdir -p src/{a,b}',
  'git status',
  'for ((i = 0; i < 3; i++)); do echo $((i + 1)); done',
  'n=3; echo $((n * 2))',
  'strace -c ls',
]

describe('spellings the shell expands or hides', () => {
  it.each(HIDDEN)('%j is %s (%s), never allowed', (line, decision, rule) => {
    const result = decideCommand(DENY_UNAME, line)
    expect([result.decision, result.rule]).toEqual([decision, rule])
  })

  it.each(PLAIN)('%j stays allowed', (line) => {
    expect(decideCommand(DENY_UNAME, line).decision).toBe('allow')
  })

  it('stops matching a pattern built to backtrack, refusing instead of holding the server', () => {
    const policy = {
      commands: { allow: [], ask: [], deny: [`${'*a'.repeat(60)}*b`] },
      default: 'allow' as const,
    }
    const line = `echo ${'a'.repeat(60_000)}`
    const result = decideCommand(
      {
        layers: Array.from({ length: 3 }, () => ({
          source: 'environment' as const,
          policy: CommandPolicy.parse(policy),
        })),
      },
      line,
    )
    expect(['allow', 'deny']).toContain(result.decision)
    if (result.decision === 'deny') expect(result.rule).toBe('builtin:too-complex')
  })
})

describe('a policy its member wrote to be expensive', () => {
  /** Three lists of 200 patterns each. */
  const policyOf = (pattern: (i: number) => string) => {
    const list = (tag: string) => Array.from({ length: 200 }, (_, i) => `${pattern(i)}${tag}`)
    return { commands: { allow: list('x'), ask: list('y'), deny: list('z') }, default: 'allow' as const }
  }

  it('is judged over a line of 128 commands: each pattern is compiled once, not once per command', () => {
    // Six brace groups: 64 alternatives a pattern. Compiled per command, as before, this was 74
    // million characters of patterns and more than the budget; compiled once, 1.2 million.
    const policy = policyOf((i) => `${'{a,b}'.repeat(6)}${i}`)
    expect(decideCommand(policy, 'a;'.repeat(128))).toMatchObject({ decision: 'allow', command: 'a' })
    expect(decideCommand(policy, 'ls; abbaba7z')).toMatchObject({
      decision: 'deny',
      rule: 'deny: {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}7z',
    })
  })

  it('refuses a short line rather than compile 600 patterns of 64 alternatives each 500 long', () => {
    const policy = policyOf((i) => `{${'a'.repeat(240)},b}{a,b}{a,b}{a,b}{a,b}{a,b}${'c'.repeat(200)}${i}`)
    expect(decideCommand(policy, 'git status')).toMatchObject({
      decision: 'deny',
      rule: 'builtin:too-complex',
      reason: 'the command line is too long to judge against this policy',
    })
  })
})

describe('mergePolicies', () => {
  const org = { commands: { deny: ['curl *'], ask: ['git push *'], allow: [] }, default: 'allow' as const }

  it('org deny always applies, even when the environment allows it', () => {
    const merged = mergePolicies(org, { commands: { allow: ['curl *'] } })
    expect(decideCommand(merged, 'curl https://x')).toMatchObject({
      decision: 'deny',
      rule: 'org deny: curl *',
    })
  })

  it('org ask cannot be loosened into an allow', () => {
    const merged = mergePolicies(org, { commands: { allow: ['git *'] } })
    expect(decideCommand(merged, 'git push origin')).toMatchObject({
      decision: 'ask',
      rule: 'org ask: git push *',
    })
    expect(decideCommand(merged, 'git status').decision).toBe('allow')
  })

  it("the org's default binds what the org did not name", () => {
    const merged = mergePolicies({ default: 'ask' }, { commands: { allow: ['node *'] } })
    expect(decideCommand(merged, 'node app.js')).toMatchObject({ decision: 'ask', rule: 'org default' })
    const orgAllows = mergePolicies({ commands: { allow: ['node *'] }, default: 'ask' }, { default: 'allow' })
    expect(decideCommand(orgAllows, 'node app.js').decision).toBe('allow')
  })

  it('the environment may tighten what the org allows', () => {
    const merged = mergePolicies(org, { commands: { deny: ['npm publish *'] } })
    expect(decideCommand(merged, 'npm publish')).toMatchObject({
      decision: 'deny',
      rule: 'deny: npm publish *',
    })
  })

  it('without an org policy the environment decides alone', () => {
    expect(decideCommand(mergePolicies(undefined, STRICT), 'git push x').rule).toBe('ask: git push *')
  })
})

describe('CommandPolicy', () => {
  it('fills defaults and rejects unknown keys and empty patterns', () => {
    expect(CommandPolicy.parse({})).toEqual({ commands: { allow: [], ask: [], deny: [] }, default: 'allow' })
    expect(CommandPolicy.safeParse({ commands: { permit: [] } }).success).toBe(false)
    expect(CommandPolicy.safeParse({ commands: { deny: [' '] } }).success).toBe(false)
    expect(CommandPolicy.safeParse({ default: 'maybe' }).success).toBe(false)
  })
})
