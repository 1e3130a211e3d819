import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('PUBLIC_URL', () => {
  it('defaults to the server on localhost at its own port, so mailed links reach it', () => {
    expect(loadConfig({ PORT: '9123' }).publicUrl).toBe('http://localhost:9123');
    expect(loadConfig({}).publicUrl).toBe('http://localhost:8080');
  });

  it('is taken as set, without a trailing slash', () => {
    expect(loadConfig({ PORT: '9123', PUBLIC_URL: 'https://console.example.test/' }).publicUrl).toBe(
      'https://console.example.test',
    );
  });
});
