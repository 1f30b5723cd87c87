import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has defaults for everything', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, mqttPort: 1883, host: '0.0.0.0', databaseUrl: undefined });
    expect(c.dataDir).toMatch(/data$/);
    expect(c).toMatchObject({
      mqttMaxConnectionsPerIp: 10_000,
      mqttMaxPendingPerIp: 1000,
      mqttConnectTimeoutMs: 10_000,
      loginLimitPerIp: 60,
    });
    expect(loadConfig({ LOGIN_LIMIT_PER_IP: '1000' }).loginLimitPerIp).toBe(1000);
    expect(loadConfig({ MQTT_CONNECT_TIMEOUT: '3' }).mqttConnectTimeoutMs).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT/],
    [{ MQTT_PORT: '-1' }, /MQTT_PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ SMTP_URL: 'not a url' }, /SMTP_URL is not a valid URL/],
    [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD must be 8-64/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ MQTT_MAX_PENDING_PER_IP: '0' }, /MQTT_MAX_PENDING_PER_IP must be a whole number/],
    [{ MQTT_MAX_CONNECTIONS_PER_IP: 'lots' }, /MQTT_MAX_CONNECTIONS_PER_IP must be a whole number/],
    [{ LOGIN_LIMIT_PER_IP: '0' }, /LOGIN_LIMIT_PER_IP must be a whole number/],
    [{ MQTT_CONNECT_TIMEOUT: '2.5' }, /MQTT_CONNECT_TIMEOUT must be a whole number of seconds/],
    [{ ALLOWED_ORIGINS: 'console.example.com' }, /ALLOWED_ORIGINS must be comma-separated origins/],
    [{ ALLOWED_ORIGINS: 'https://a.example/path' }, /ALLOWED_ORIGINS/],
    [{ ALLOWED_ORIGINS: 'ftp://a.example' }, /ALLOWED_ORIGINS/],
  ])('stops on %o with one line naming it', (env, msg) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(msg);
  });

  it('takes a PostgreSQL URL naming a Unix socket directory (docs/deploy.md)', () => {
    const url = 'postgres:///se?host=/var/run/postgresql&user=se';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('reads ALLOWED_ORIGINS as a list of origins', () => {
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(
      loadConfig({ ALLOWED_ORIGINS: ' https://console.example.com , http://10.0.0.5:8080/ ' }).allowedOrigins,
    ).toEqual(['https://console.example.com', 'http://10.0.0.5:8080']);
  });
});
