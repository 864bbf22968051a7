import { render, screen } from '@testing-library/react';
import { ConfigErrorPage } from '../../web/src/app/config-error-page';
import { ConfigError, getConfig, loadConfig, parseConfig, setConfigForTesting } from '../../web/src/lib/config';

const valid = {
  region: 'us-east-1',
  userPoolId: 'us-east-1_framewrightlocal',
  userPoolClientId: 'framewrightlocalclient',
  apiBaseUrl: '',
  userPoolEndpoint: 'http://localhost:9229',
  authFlowType: 'USER_PASSWORD_AUTH',
};

function fakeFetch(status: number, body: string) {
  return jest.fn(async () => ({ ok: status >= 200 && status < 300, status, json: async () => JSON.parse(body) })) as unknown as typeof fetch;
}

beforeEach(() => setConfigForTesting(undefined));

describe('config', () => {
  it('accepts a valid local config and a minimal cloud config', () => {
    expect(parseConfig(valid)).toEqual(valid);
    const cloud = { region: 'eu-west-1', userPoolId: 'eu-west-1_abc', userPoolClientId: 'abc', apiBaseUrl: 'https://d1.cloudfront.net' };
    expect(parseConfig(cloud)).toEqual(cloud);
  });

  it('rejects an invalid config, naming the bad keys', () => {
    expect(() => parseConfig({ ...valid, userPoolId: '' })).toThrow(ConfigError);
    expect(() => parseConfig({ ...valid, userPoolId: undefined })).toThrow(/userPoolId/);
    expect(() => parseConfig({ ...valid, apiBaseUrl: 'not a url' })).toThrow(/apiBaseUrl/);
    expect(() => parseConfig({ ...valid, authFlowType: 'CUSTOM_AUTH' })).toThrow(/authFlowType/);
    expect(() => parseConfig({ ...valid, userPoolEndpoint: 'nope' })).toThrow(/userPoolEndpoint/);
    expect(() => parseConfig(null)).toThrow(ConfigError);
  });

  it('loads /config.json once and exposes it through getConfig()', async () => {
    expect(() => getConfig()).toThrow(/not loaded/);
    const fetchImpl = fakeFetch(200, JSON.stringify(valid));
    await expect(loadConfig(fetchImpl)).resolves.toEqual(valid);
    await loadConfig(fetchImpl);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl).toHaveBeenCalledWith('/config.json', expect.anything());
    expect(getConfig().userPoolClientId).toBe('framewrightlocalclient');
  });

  it('rejects when /config.json is missing or invalid', async () => {
    await expect(loadConfig(fakeFetch(404, ''))).rejects.toThrow('Could not load /config.json (HTTP 404).');
    await expect(loadConfig(fakeFetch(200, JSON.stringify({ region: 'x' })))).rejects.toThrow(/Invalid \/config\.json: .*userPoolId/);
    expect(() => getConfig()).toThrow(ConfigError);
  });

  it('shows a full-page error when the config cannot load', () => {
    render(<ConfigErrorPage error={new ConfigError('Could not load /config.json (HTTP 404).')} />);
    expect(screen.getByRole('heading', { name: 'Framewright could not start' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load /config.json (HTTP 404).');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
