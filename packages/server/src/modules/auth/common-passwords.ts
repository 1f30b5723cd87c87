/**
 * The commonest passwords of at least 8 characters (shorter ones fail the length rule
 * anyway): leaked-list favourites, keyboard walks, Chinese pinyin and number phrases, and
 * the word + number variants people reach for when told "at least 8 characters".
 * Kept on the server only: the login page's bundle must stay small.
 */
const WORDS = `
password passw0rd p@ssword p@ssw0rd pass pwd admin administrator root toor super superman
qwerty qwertyui qwertyuiop asdfgh asdfghjk asdfghjkl zxcvbn zxcvbnm qazwsx qazwsxedc
1qaz2wsx 1q2w3e4r 1q2w3e4r5t 1q2w3e 1qazxsw2 zaq12wsx zaq1xsw2 q1w2e3r4 a1b2c3d4 abc abcd abcde abcdef
iloveyou loveyou love lover lovely woaini woaiwojia woainima woaini1314 wangyang zhangwei
aini 5201314 520520 1314520 521521 caonima nihao nihaoma laopo laogong baobao beibei
dragon monkey letmein welcome welcome1 sunshine princess football baseball basketball
master shadow michael jennifer jordan hunter ranger buster soccer harley hockey killer
trustno1 starwars computer internet whatever freedom charlie michelle jessica pepper
ginger summer winter spring autumn flower chocolate cookie cheese banana orange apple
secret changeme default guest test tester testing user username login system server
china beijing shanghai shenzhen guangzhou hangzhou tianjin chengdu wuhan nanjing
huawei xiaomi tencent alibaba baidu taobao weixin wechat qq qqqq
zhang wang li liu chen yang huang zhao zhou wu xu sun ma zhu hu guo he lin luo
woshishui wodemima mima mimamima kaixin xingfu meiyou yingying tingting lili
toilet cesuo huanjing zhihui smart device office company manager
sample demo hello helloworld goodluck google facebook yahoo microsoft apple
`;

const SUFFIXES = [
  '',
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '123456',
  '1234567',
  '12345678',
  '123456789',
  '0',
  '00',
  '000',
  '01',
  '11',
  '111',
  '007',
  '520',
  '521',
  '1314',
  '5201314',
  '666',
  '888',
  '999',
  '!',
  '!!',
  '@',
  '#',
  '.',
  '!@#',
  '@123',
  '#123',
  '_123',
  '.123',
  '123!',
  '1!',
  '2',
  '22',
  '69',
  '99',
  '2000',
  '2008',
  '2010',
  '2012',
  '2015',
  '2016',
  '2017',
  '2018',
  '2019',
  '2020',
  '2021',
  '2022',
  '2023',
  '2024',
  '2025',
  '2026',
  '2027',
  '@2024',
  '@2025',
  '@2026',
];

const PHRASES = `
12345678 123456789 1234567890 0123456789 87654321 987654321 9876543210 0987654321
11111111 00000000 88888888 66666666 99999999 12341234 11223344 12121212 13131313
1234qwer qwer1234 asdf1234 1234asdf zxcv1234 abcd1234 1234abcd abc12345 abc123456
a1234567 a12345678 a123456789 aa123456 aa12345678 qq123456 qq12345678 q1234567 q12345678
woaini520 woaini521 5201314520 1314521 52013145 1qaz@wsx 1qaz!qaz !qaz2wsx 1qaz1qaz
qwe12345 qwe123456 qweasdzxc qweasd123 asd12345 asd123456 zxc12345 zxc123456 147258369
159357258 147852369 123654789 789456123 741852963 963852741 12369874 14789632 123qweasd
123qweasdzxc 1q2w3e4r5t6y qazxswedc qwertyuiop123 abcdefgh abcdefg1 abcdefg123 passw0rd1
iloveyou1 iloveyou2 iloveyou123 Aa123456 Aa12345678 Abc123456 Abcd1234 Admin123 Admin@123
admin888 admin666 admin@123 admin123456 root1234 root@123 test1234 test@123 Test1234
password01 password1! Password1 Password123 Password@123 P@ssw0rd P@ssword1 Passw0rd!
18888888 13888888 15888888 18666666 168168168 16888888 88888888a 12345678a 123456789a
1234567a 123456aa 123456abc 123456qwe 123456asd 123456zxc 123456.. 123456789. 19491001
20080808 20080512 19900101 19800101 19880808 19870101 19890604 woshinidaye wodeqq123
zhang123456 wang123456 liu123456 li123456 chen123456 yang123456 zhao123456 huang123456
`;

function build(): Set<string> {
  const out = new Set<string>();
  for (const w of WORDS.split(/\s+/).filter(Boolean)) {
    for (const s of SUFFIXES) {
      out.add(w + s);
      out.add(s + w);
    }
  }
  for (const p of PHRASES.split(/\s+/).filter(Boolean)) out.add(p);
  // Dates people use, yyyymmdd and ddmmyyyy, 1950-2025.
  for (let y = 1950; y <= 2025; y++) {
    for (let m = 1; m <= 12; m++) {
      const mm = String(m).padStart(2, '0');
      out.add(`${y}${mm}01`);
      out.add(`${y}${mm}${mm}`);
    }
    out.add(`${y}${y}`);
    out.add(`abc${y}${y}`);
  }
  const lower = new Set<string>();
  for (const p of out) if (p.length >= 8) lower.add(p.toLowerCase());
  return lower;
}

/** Lower-case entries; compare with `password.toLowerCase()`. */
export const COMMON_PASSWORDS: ReadonlySet<string> = build();
