import { describe, expect, it } from 'vitest';
import { describe as describeAttrs, extractAttributes, parseModelAttributes, plainText } from './product-identify.js';

describe('built-in product extraction', () => {
  it('reads an English description (HTML): price, sizes, material, colours, shipping, returns, warranty, weight, features', () => {
    const a = extractAttributes(
      'Merino Tee',
      '<p>Soft merino wool tee. Price: $49.90. Sizes: S, M, L, XL. Colours: black, navy.</p><ul><li>Odour resistant</li><li>Machine washable</li></ul>' +
        '<p>Ships in 1-2 business days. 30-day returns. 2-year warranty. Weight 180 g.</p>',
    );
    expect(a).toMatchObject({
      summary: 'Soft merino wool tee.',
      price: '$49.90',
      sizes: ['S', 'M', 'L', 'XL'],
      materials: ['wool'],
      colors: ['black', 'blue'],
      shipping: '1-2 days',
      returns: '30 days',
      warranty: '2 years',
      weight: '180 g',
      features: ['Odour resistant', 'Machine washable'],
    });
  });

  it('reads a Chinese description: price in yuan, capacity, dimensions, weight, material, returns, warranty, shipping', () => {
    const a = extractAttributes('保温杯 500ml', '不锈钢保温杯，尺寸 7x7x22 cm，重量 300克。售价 ¥89。支持7天无理由退货，保修1年。48小时内发货。颜色：黑色、白色');
    expect(a).toMatchObject({
      price: '¥89',
      capacity: '500 ml',
      dimensions: '7 × 7 × 22 cm',
      weight: '300 克',
      materials: ['stainless steel'],
      colors: ['black', 'white'],
      returns: '7 天',
      warranty: '1 年',
      shipping: '48小时内发货',
    });
  });

  it('expands a letter-size range and reports nothing it cannot read', () => {
    expect(extractAttributes('Hoodie', 'Available in sizes S-XL.').sizes).toEqual(['S', 'M', 'L', 'XL']);
    const none = extractAttributes('Gift card', 'A gift card for our store.');
    expect(none).toMatchObject({ price: null, sizes: [], materials: [], colors: [], weight: null, warranty: null });
  });

  it('labels the method and lists only the attributes found', () => {
    const text = describeAttrs('Lamp', { summary: 'A lamp.', price: '$10', sizes: [] }, 'Built-in');
    expect(text.split('\n')).toEqual(['[Built-in]', 'Title / 标题: Lamp', 'Summary / 概述: A lamp.', 'Price / 价格: $10']);
  });

  it('takes the JSON object out of a model reply, else nothing', () => {
    expect(parseModelAttributes('Here you go:\n```json\n{"price": "$5", "sizes": ["M", 7], "bogus": 1}\n```')).toEqual({ price: '$5', sizes: ['M', '7'] });
    expect(parseModelAttributes('no json here')).toBeNull();
    expect(plainText('<p>a <b>b</b></p>')).toBe('a b');
  });
});
