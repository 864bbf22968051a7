/** Money as PayPal checks it: supported currencies, their precision, amounts as minor units. */
import { issue, missing, type Findings } from './errors';
import { isRecord, type SimMoney } from './types';

const SUPPORTED_CURRENCIES = new Set([
  'AUD', 'BRL', 'CAD', 'CNY', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MYR', 'MXN', 'TWD', 'NZD', 'NOK',
  'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD',
]);
const ZERO_DECIMAL_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);

/** Minor units of a validated amount string (e.g. "6.99" USD -> 699n). */
export function toMinor(value: string, currency: string): bigint {
  const exp = ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
  const neg = value.startsWith('-');
  const [int = '0', frac = ''] = (neg ? value.slice(1) : value).split('.');
  const minor = BigInt(int || '0') * 10n ** BigInt(exp) + BigInt(frac.padEnd(exp, '0').slice(0, exp) || '0');
  return neg ? -minor : minor;
}
export function fromMinor(minor: bigint, currency: string): string {
  const exp = ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
  if (exp === 0) return minor.toString();
  const s = (minor < 0n ? -minor : minor).toString().padStart(3, '0');
  return `${minor < 0n ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** A money object: currency_code 3 upper-case letters PayPal supports, value a decimal string > 0 with the currency's precision. */
export function money(v: unknown, path: string, f: Findings, opts: { positive: boolean }): SimMoney | undefined {
  if (v === undefined || v === null) {
    f.bad.push(missing(path));
    return undefined;
  }
  if (!isRecord(v)) {
    f.bad.push(issue(path, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    return undefined;
  }
  let ok = true;
  const cc = v.currency_code;
  if (cc === undefined || cc === null) {
    f.bad.push(missing(`${path}/currency_code`));
    ok = false;
  } else if (typeof cc !== 'string' || !/^[A-Z]{3}$/.test(cc)) {
    f.bad.push(issue(`${path}/currency_code`, cc, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format (ISO 4217, three upper-case letters).'));
    ok = false;
  } else if (!SUPPORTED_CURRENCIES.has(cc)) {
    f.unprocessable.push(issue(`${path}/currency_code`, cc, 'CURRENCY_NOT_SUPPORTED', 'Currency code is not currently supported. Please refer https://developer.paypal.com/docs/api/reference/currency-codes/ for list of supported currency codes.'));
    ok = false;
  }
  const value = v.value;
  if (value === undefined || value === null) {
    f.bad.push(missing(`${path}/value`));
    return undefined;
  }
  if (typeof value !== 'string' || value.length > 32 || !/^-?\d+(\.\d+)?$/.test(value)) {
    f.bad.push(issue(`${path}/value`, value, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format (a decimal string such as "6.99").'));
    return undefined;
  }
  if (!ok || typeof cc !== 'string') return undefined;
  const decimals = value.split('.')[1]?.length ?? 0;
  if (decimals > (ZERO_DECIMAL_CURRENCIES.has(cc) ? 0 : 2)) {
    f.unprocessable.push(issue(`${path}/value`, value, 'DECIMAL_PRECISION', 'If the currency supports decimals, only two decimal place precision is supported.'));
    return undefined;
  }
  const minor = toMinor(value, cc);
  if (opts.positive ? minor <= 0n : minor < 0n) {
    f.unprocessable.push(issue(`${path}/value`, value, 'CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.'));
    return undefined;
  }
  return { currency_code: cc, value };
}
