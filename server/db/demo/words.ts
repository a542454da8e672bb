/** Word lists for believable demo names. */
export const FIRST = ['Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Lucas', 'Mia', 'Ethan', 'Sofia', 'Mateo', 'Chloe', 'Leo', 'Hannah', 'Yuki', 'Wei', 'Li', 'Chen', 'Jun', 'Anna', 'Max', 'Lea', 'Paul', 'Marie', 'Tom', 'Grace', 'Ivy', 'Ken', 'Sara', 'Omar', 'Nina'];
export const LAST = ['Smith', 'Johnson', 'Brown', 'Garcia', 'Miller', 'Davis', 'Martin', 'Müller', 'Schmidt', 'Dubois', 'Wang', 'Zhang', 'Liu', 'Tanaka', 'Sato', 'Kim', 'Lee', 'Silva', 'Rossi', 'Novak', 'Walker', 'Hall', 'Young', 'King'];
export const CN_NAMES = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊', '赵敏', '黄涛', '周杰', '吴婷', '徐明', '孙丽'];
export const BRAND_A = ['Nova', 'Luna', 'Peak', 'Urban', 'Coast', 'Maple', 'Aurora', 'Cedar', 'Bloom', 'Nordic', 'Solar', 'Velvet', 'Atlas', 'Harbor', 'Willow', 'Ember', 'Pixel', 'Zen', 'Koa', 'Terra'];
export const BRAND_B = ['Outdoor', 'Pets', 'Home', 'Beauty', 'Kitchen', 'Fitness', 'Kids', 'Tech', 'Style', 'Garden', 'Coffee', 'Jewelry', 'Books', 'Toys', 'Wellness', 'Audio'];
export const CN_SHOP_A = ['好物', '优选', '小鹿', '星光', '森林', '暖阳', '橙子', '花间', '云端', '木子'];
export const CN_SHOP_B = ['旗舰店', '生活馆', '美妆店', '家居馆', '母婴店', '零食铺', '服饰店', '数码馆'];
export const PRODUCTS = ['Hiking Backpack 30L', 'Ceramic Pour-over Set', 'Organic Cat Treats', 'Wireless Earbuds Pro', 'Yoga Mat Non-slip', 'Linen Bed Sheets', 'LED Desk Lamp', 'Stainless Water Bottle', 'Silk Scarf', 'Kids Rain Boots', 'Vitamin C Serum', 'Smart Plant Sensor', 'Leather Wallet', 'Bluetooth Speaker', 'Running Shoes'];
export const CN_PRODUCTS = ['保温杯 500ml', '无线蓝牙耳机', '儿童雨靴', '纯棉四件套', '坚果礼盒', '护手霜套装', '电动牙刷', '羊毛围巾', '速干运动T恤', '陶瓷餐具套装'];
export const POLICY_TOPICS: Array<[string, string]> = [
  ['Shipping times', 'Orders ship within 1–2 business days. Standard delivery takes 3–7 business days; express takes 1–3.'],
  ['Return policy', 'Unused items can be returned within 30 days of delivery. Start a return from the order page; refunds reach the original payment method in 5–10 days.'],
  ['Order tracking', 'A tracking link is emailed when the order ships. Customers can also track with their order number and email on the tracking page.'],
  ['Damaged items', 'If an item arrives damaged, ask for a photo and the order number, then offer a replacement or a full refund.'],
  ['International shipping', 'We ship to over 40 countries. Duties and taxes are calculated at checkout for the EU, UK and Canada.'],
  ['Size guide', 'Our sizes run true to size. If between two sizes, recommend the larger one; exchanges for size are free.'],
  ['Discount codes', 'One discount code per order. Codes cannot be applied after the order is placed.'],
  ['Warranty', 'Electronics carry a 12-month warranty against manufacturing defects.'],
  ['Order changes', 'Address or item changes are possible until the order is fulfilled; after that, offer a return.'],
  ['退换货政策', '签收后7天内支持无理由退货，商品需保持完好，运费由买家承担；质量问题由商家承担运费。'],
  ['发货时间', '付款后48小时内发货，默认中通快递，偏远地区可能延迟1-2天。'],
];
export const QUESTIONS = ['Where is my order?', 'Can I change my shipping address?', 'How do I return an item?', 'My package arrived damaged', 'Do you ship to Canada?', 'When will my refund arrive?', 'Is this product in stock?', 'Can I cancel my order?', '我的快递到哪了？', '可以开发票吗？', '商品有质量问题怎么处理？'];
export const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'JP', 'SG', 'NL', 'BR'];
export const CITIES: Record<string, string> = { US: 'Austin', GB: 'London', DE: 'Berlin', FR: 'Lyon', CA: 'Toronto', AU: 'Sydney', JP: 'Osaka', SG: 'Singapore', NL: 'Utrecht', BR: 'São Paulo', CN: '杭州' };
export const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
