import { expect } from 'chai';
import {
  edgeValues,
  fileData,
  nodeValues,
  parseVerifications,
  portValues,
  recordMaker,
  storedPortProps,
  storedProps,
  wireData,
} from './nodeValues';

const noPorts = () => ({ inputs: [], outputs: [], config: [] });

describe('node values: fields filled from the node model', () => {
  it('gives a node written before a field existed that field’s default', () => {
    const values = nodeValues({ name: 'a', verifications: '' });
    expect(values).to.include({ name: 'a', description: '', status: 'idle', user_kind: null });
    expect(values.aliases).to.deep.equal([]);
    expect(values.verifications).to.deep.equal([]);
  });

  it('stores verifications as JSON text and reads them back with every field', () => {
    const one = [{ id: 'v', author: 'user' as const, text: 't', type: null }];
    const stored = storedProps({ ...nodeValues(), verifications: one });
    expect(stored.verifications).to.equal(JSON.stringify(one));
    expect(nodeValues(stored).verifications).to.deep.equal(one);
    expect(parseVerifications('[{"id":"v","author":"user","text":"t"}]')).to.deep.equal([
      { id: 'v', author: 'user', text: 't', type: null },
    ]);
  });

  it('keeps the fields an updated port was not sent, and null when sent null', () => {
    const base = portValues({ id: 'p', name: 'in', contract_name: 'c' });
    expect(portValues({ id: 'p', type: 'int' }, base)).to.deep.equal({
      id: 'p',
      name: 'in',
      type: 'int',
      description: '',
      external: false,
      contract_name: 'c',
    });
    expect(portValues({ id: 'p', contract_name: null }, base).contract_name).to.equal(null);
  });

  it('shows a by-kind field in the read shape only on the kinds that carry it, in order', () => {
    const values = nodeValues({ user_kind: 'svc' });
    const boundary = Object.keys(wireData('boundary', values, noPorts()));
    expect(boundary.slice(-3)).to.deep.equal(['user_kind', 'path_prefix', 'language']);
    expect(wireData('behavior', values, noPorts())).to.not.have.property('user_kind');
    expect(wireData('behavior', values, noPorts())).to.include.keys('external_kind', 'protocol');
    expect(wireData('io', values, noPorts())).to.not.have.property('aliases');
  });

  it('writes in a graph file node only the fields its kind carries, aliases included', () => {
    const state = fileData('state', nodeValues(), noPorts());
    expect(state).to.include.keys('aliases', 'user_kind');
    expect(state).to.not.have.any.keys('config', 'verifications', 'is_external', 'language');
    expect(Object.keys(fileData('behavior', nodeValues(), noPorts()))).to.include.members([
      'config',
      'verifications',
      'is_external',
      'external_kind',
      'protocol',
    ]);
  });

  it('gives a wire without handles null handles', () => {
    expect(edgeValues({ id: 'e', source: 'n' })).to.deep.equal({
      id: 'e',
      source_handle: null,
      target_handle: null,
    });
  });

  it('leaves every default out of the stored properties but the name, and reads them back whole', () => {
    const values = nodeValues({ name: '' });
    const stored = storedProps(values);
    const kept = Object.entries(stored).filter(([, value]) => value !== null);
    expect(kept).to.deep.equal([['name', '']]);
    expect(nodeValues(stored)).to.deep.equal(values);
    const set = storedProps({ ...values, status: 'running', aliases: ['a'], is_external: true });
    expect(set).to.include({ status: 'running', is_external: true, description: null });
    expect(set.aliases).to.deep.equal(['a']);
  });

  it('leaves a port’s default description and external flag out, never its name or type', () => {
    const port = portValues({ id: 'p', name: '', type: '' });
    const stored = storedPortProps(port, {});
    expect(stored).to.deep.equal({
      id: 'p',
      name: '',
      type: '',
      description: null,
      external: null,
      contract_name: null,
    });
    expect(portValues(stored as { id: string })).to.deep.equal(port);
  });
});

describe('recordMaker', () => {
  it('makes records with every key, in order, each a copy of its own', () => {
    const make = recordMaker(['kind', 'name', 'x']);
    const a = make();
    const b = make();
    a.name = 'a';
    expect(Object.keys(a)).to.deep.equal(['kind', 'name', 'x']);
    expect(a).to.deep.equal({ kind: null, name: 'a', x: null });
    expect(b).to.deep.equal({ kind: null, name: null, x: null });
  });

  it('gives storedProps and nodeValues a record to fill, keeping the keys it has first', () => {
    const props = recordMaker(['kind', ...Object.keys(storedProps(nodeValues()))])();
    props.kind = 'behavior';
    storedProps(nodeValues({ name: 'n' }), props);
    expect(props).to.deep.equal({ kind: 'behavior', ...storedProps(nodeValues({ name: 'n' })) });
    expect(Object.keys(props)[0]).to.equal('kind');
  });
});
