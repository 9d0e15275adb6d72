// The format checks of a generated server agree with the official MCP
// TypeScript client, @modelcontextprotocol/client 2.4.0: e2e/formats
// (formats-mcp) answers every tool with the strings it was given, so each
// value the generated validator lets through comes back as structured
// output the client validates against the tool's output schema. Every call
// must either be refused as invalid input or return output the client
// accepts, in both eras. The handler gets date-time, date and base64
// strings as time.Time, runtime.Date and []byte, so what comes back is
// their canonical encoding: a lower-case "t" or "z" comes back upper-case,
// a leap second as the first instant of the next day, the same instant in
// RFC 3339 that the client's validators accept. FORMATS_MCP_BIN names the
// built formats-mcp.
//
//   FORMATS_MCP_BIN=/path/to/formats-mcp node --test e2e/ts/formats.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';

const bin = process.env.FORMATS_MCP_BIN;
if (!bin) {
  throw new Error('FORMATS_MCP_BIN must name the built formats-mcp binary (see scripts/test.sh)');
}

// Edge cases of the "email" format, with whether the server must accept
// them. The ones refused are valid RFC 5321 mailboxes (the JSON Schema test
// suite calls most of them valid) that the client's validator rejects.
const emails = [
  ['ops@example.com', true],
  ['o\'brien+ops@help-desk.example', true],
  ['te.s.t@example.com', true],
  ['test@255.255.255.255', true],
  ['test@c--n.com', true],
  ['ops@localhost', false],
  ['a@b', false],
  ['"quoted"@example.com', false],
  ['"joe bloggs"@example.com', false],
  ['""@example.com', false],
  ['"a\\"b"@example.com', false],
  ['x@[127.0.0.1]', false],
  ['x@[IPv6:::1]', false],
  ['x@[ipv6:::1]', false],
  ['josé@example.com', false],
  ['用户@例子.广告', false],
  ['a@exämple.com', false],
  ['test@iana.org.', false],
  ['.a@example.com', false],
  ['a..b@example.com', false],
  ['@example.com', false],
  ['a@-example.com', false],
  [`${'a'.repeat(65)}@example.com`, false],
];

// Edge cases of the other formats: [property, value, must be accepted,
// the value echoed when it is not the one sent].
const others = [
  ['uri', 'https://example.com/a?b#c', true],
  ['uri', 'urn:isbn:0451450523', true],
  ['uri', 'x:/', true],
  ['uri', 'about:', false],
  ['uri', 'x:?q', false],
  ['uri', 'relative/path', false],
  ['uri', 'http://[::1', false],
  ['date', '2024-02-29', true],
  ['date', '2023-02-29', false],
  ['date_time', '2030-07-28T09:30:00Z', true],
  ['date_time', '2030-07-28t09:30:00z', true, '2030-07-28T09:30:00Z'],
  ['date_time', '2030-07-28T09:30:00.250+05:30', true, '2030-07-28T09:30:00.25+05:30'],
  ['date_time', '1998-12-31T23:59:60Z', true, '1999-01-01T00:00:00Z'],
  ['date_time', '1998-12-31T15:59:60.123-08:00', false],
  ['date_time', '1998-12-31T23:59:60+00:00', true, '1999-01-01T00:00:00Z'],
  ['date_time', '1998-12-31T22:59:60Z', false],
  ['date_time', '2030-07-28 09:30:00Z', false],
  ['date_time', '2030-07-28T09:30:00+0100', false],
  ['uuid', '2EB8AA08-AA98-11EA-B4AA-73B441D16380', true],
  ['uuid', 'urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380', false],
  ['data', 'aGVsbG8gd29ybGQ=', true],
  ['data', '', true],
  ['data', 'aGVsbG8', false],
  ['data', 'not base64!', false],
];

// Deliveries for echo_delivery, whose store and address only then and
// else declare, under unevaluatedProperties: false: [delivery, must be
// accepted].
const deliveries = [
  [{ method: 'pickup', store: 'Main Street' }, true],
  [{ method: 'post', address: '1 Road' }, true],
  [{ method: 'post', store: 'Main Street' }, false],
  [{ method: 'pickup', store: 'Main Street', address: '1 Road' }, false],
  [{ method: 'pickup' }, false],
  [{ method: 'post', address: '' }, false],
  [{ method: 'post', address: '1 Road', note: 'x' }, false],
];

const modes = [
  ['auto', 'auto'],
  ['legacy', 'legacy'],
];

/** The text of every text block of a tool result, joined. */
function textOf(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/**
 * Calls a tool and classifies the outcome: 'accepted' (a result the client
 * validated), or 'refused' (the server refused the input). Anything else,
 * above all the client rejecting the server's output, fails the test.
 */
async function outcome(client, name, args, echoed = args) {
  let result;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (err) {
    // The client reports its own output validation failure with the same
    // code as the server's refusal, so the message tells them apart.
    assert.doesNotMatch(err.message, /output schema/, `${name}(${JSON.stringify(args)}): the client rejected the server's answer`);
    assert.equal(err.code, -32602, `${name}(${JSON.stringify(args)}): the call failed with ${err}, not an invalid-params refusal`);
    assert.match(err.message, /must (be|have)/, `${name}(${JSON.stringify(args)}): the refusal says what is expected`);
    return 'refused';
  }
  if (result.isError) {
    assert.match(textOf(result), /must be|invalid/i, `${name}(${JSON.stringify(args)}): tool error ${textOf(result)}`);
    return 'refused';
  }
  assert.deepEqual(result.structuredContent, echoed, `${name}: echoed`);
  return 'accepted';
}

// Readings: a reference that is a string (at least 2 characters) or an
// integer (at least 1), and a [lat, lon] tuple with no item after it
// (prefixItems and items: false), with whether the server must accept
// them. minLength constrains only the strings and minimum only the
// integers, as JSON Schema says.
const readings = [
  [{ ref: 'AB', at: [52.5, 13.4] }, true],
  [{ ref: 7, at: [-90, 180] }, true],
  [{ ref: 'A7', at: [0, 0] }, true],
  [{ ref: 'A', at: [1, 2] }, false],
  [{ ref: 0, at: [1, 2] }, false],
  [{ ref: 1.5, at: [1, 2] }, false],
  [{ ref: true, at: [1, 2] }, false],
  [{ ref: null, at: [1, 2] }, false],
  [{ ref: ['AB'], at: [1, 2] }, false],
  [{ ref: 'AB', at: [1] }, false],
  [{ ref: 'AB', at: [1, 2, 3] }, false],
  [{ ref: 'AB', at: [91, 2] }, false],
  [{ ref: 'AB', at: ['1', 2] }, false],
];

// The validators the client ships: Ajv with ajv-formats (Node's default)
// and @cfworker/json-schema (browsers and edge runtimes). Whatever the
// server accepts, both must accept as output.
const validators = [
  ['ajv', new AjvJsonSchemaValidator()],
  ['cf-worker', new CfWorkerJsonSchemaValidator()],
];

for (const [modeLabel, mode] of modes) {
  describe(`formats-mcp over stdio with versionNegotiation ${modeLabel}`, () => {
    let client;
    let tools;

    before(async () => {
      client = new Client({ name: 'mcpgen-e2e-formats', version: '0.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StdioClientTransport({ command: bin, stderr: 'ignore' }));
      tools = (await client.listTools()).tools;
    });

    after(async () => {
      await client?.close();
    });

    test('lists the tools with their output schemas', () => {
      const names = tools.map((t) => t.name).sort();
      assert.deepEqual(names, ['echo_delivery', 'echo_reading', 'echo_values', 'register_contact']);
      const contact = tools.find((t) => t.name === 'register_contact');
      assert.equal(contact.outputSchema.properties.email.format, 'email');
    });

    test('every e-mail address is refused as input or answered with output the client accepts', async () => {
      const schema = tools.find((t) => t.name === 'register_contact').outputSchema;
      for (const [email, want] of emails) {
        const got = await outcome(client, 'register_contact', { email });
        assert.equal(got, want ? 'accepted' : 'refused', `register_contact ${JSON.stringify(email)}`);
        if (got === 'accepted') {
          for (const [vname, v] of validators) {
            const r = v.getValidator(schema)({ email });
            assert.ok(r.valid, `${vname} rejects ${JSON.stringify(email)}, which the server accepted: ${r.errorMessage}`);
          }
        }
      }
    });

    test('members only then and else declare are admitted exactly where the client admits them', async () => {
      const schema = tools.find((t) => t.name === 'echo_delivery').outputSchema;
      assert.equal(schema.unevaluatedProperties, false);
      assert.equal(schema.properties.store, undefined, 'store is published in then only');
      for (const [delivery, want] of deliveries) {
        const got = await outcome(client, 'echo_delivery', { delivery }, delivery);
        assert.equal(got, want ? 'accepted' : 'refused', `echo_delivery ${JSON.stringify(delivery)}`);
        for (const [vname, v] of validators) {
          const r = v.getValidator(schema)(delivery);
          assert.equal(r.valid, want, `${vname} says valid=${r.valid} for ${JSON.stringify(delivery)}, the server ${got} it`);
        }
      }
    });

    test('a list of types and a closed tuple are refused exactly where the client refuses them', async () => {
      const schema = tools.find((t) => t.name === 'echo_reading').outputSchema;
      assert.deepEqual(schema.properties.ref.type, ['string', 'integer'], 'the list is published as written');
      assert.equal(schema.properties.at.items, false);
      const input = tools.find((t) => t.name === 'echo_reading').inputSchema;
      for (const [reading, want] of readings) {
        const got = await outcome(client, 'echo_reading', { reading }, reading);
        assert.equal(got, want ? 'accepted' : 'refused', `echo_reading ${JSON.stringify(reading)}`);
        for (const [vname, v] of validators) {
          const r = v.getValidator(schema)(reading);
          assert.equal(r.valid, want, `${vname} says valid=${r.valid} for ${JSON.stringify(reading)}, the server ${got} it`);
          const ri = v.getValidator(input)({ reading });
          assert.equal(ri.valid, want, `${vname} says valid=${ri.valid} for the input ${JSON.stringify(reading)}, the server ${got} it`);
        }
      }
    });

    test('every other format value is refused as input or answered with output the client accepts', async () => {
      const schema = tools.find((t) => t.name === 'echo_values').outputSchema;
      for (const [prop, value, want, back = value] of others) {
        const args = { [prop]: value };
        const echoed = { [prop]: back };
        const got = await outcome(client, 'echo_values', args, echoed);
        assert.equal(got, want ? 'accepted' : 'refused', `echo_values ${JSON.stringify(args)}`);
        if (got === 'accepted') {
          for (const [vname, v] of validators) {
            for (const value of [args, echoed]) {
              const r = v.getValidator(schema)(value);
              assert.ok(r.valid, `${vname} rejects ${JSON.stringify(value)}, which the server accepted or answered: ${r.errorMessage}`);
            }
          }
        }
      }
    });
  });
}
