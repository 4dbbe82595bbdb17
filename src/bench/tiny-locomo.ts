// A tiny hand-made LoCoMo-shaped dataset (one English, one Chinese conversation) for the benchmark's tests.

/** Marker placed in the annotations the loader must never read. */
export const ANNOTATION_MARKER = 'LEAKED-ANNOTATION';

/** Two conversations in LoCoMo's JSON shape; questions cover stray spaces, a joined id and a missing id. */
export function tinyLocomo(): unknown[] {
  return [
    {
      sample_id: 'conv-en',
      conversation: {
        speaker_a: 'Caroline',
        speaker_b: 'Melanie',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: [
          { speaker: 'Caroline', dia_id: 'D1:1', text: 'I went to a support group yesterday.' },
          { speaker: 'Melanie', dia_id: 'D1:2', text: 'I painted a sunrise by the lake last year.' },
          {
            speaker: 'Caroline',
            dia_id: 'D1:3',
            text: 'Look at my new shoes!',
            img_url: ['https://example.invalid/x.jpg'],
            blip_caption: 'a photo of red running shoes',
            query: 'running shoes',
          },
        ],
        session_2_date_time: '12:48 am on 1 February, 2024',
        session_2: [
          { speaker: 'Melanie', dia_id: 'D2:1', text: 'My kids love the beach in summer.' },
          { speaker: 'Caroline', dia_id: 'D2:2', text: 'I am studying psychology to become a counselor.' },
        ],
      },
      observation: { session_1_observation: ANNOTATION_MARKER },
      session_summary: { session_1_summary: ANNOTATION_MARKER },
      event_summary: { events_session_1: ANNOTATION_MARKER },
      qa: [
        { question: 'When did Caroline go to the support group?', answer: '7 May 2023', evidence: ['D1:1 '], category: 2 },
        { question: 'What did Melanie paint?', answer: 'a sunrise', evidence: ['D1:2; D2:1'], category: 1 },
        { question: 'What is Caroline studying?', answer: 'psychology', evidence: ['D2:2', 'D9:9'], category: 4 },
        { question: 'What color are the shoes?', answer: 'red', evidence: ['D1:3'], category: 3 },
        { question: 'What did Melanie study?', adversarial_answer: 'psychology', evidence: ['D2:2'], category: 5 },
      ],
    },
    {
      sample_id: 'conv-zh',
      conversation: {
        speaker_a: '小明',
        speaker_b: '小红',
        session_1_date_time: '2023年5月8日 下午1:56',
        session_1: [
          { speaker: '小明', dia_id: 'D1:1', text: '我昨天在北京喝了很好的咖啡。' },
          { speaker: '小红', dia_id: 'D1:2', text: '我下周要去上海参加会议。' },
          { speaker: '小明', dia_id: 'D1:3', text: '周末我们一起去公园跑步吧。' },
        ],
      },
      qa: [
        { question: '小明在北京喝了什么？', answer: '咖啡', evidence: ['D1:1'], category: 4 },
        { question: '小红下周去哪里开会？', answer: '上海', evidence: ['D1:2'], category: 4 },
      ],
    },
  ];
}
