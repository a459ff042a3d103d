from robobo_api import effects


def test_led_names_and_the_apps_colours():
    assert effects.led('Front-C', 'orange') == ([('Front-C', (1.0, 0.5, 0.0))], None)
    leds, problem = effects.led('all', 'off')
    assert problem is None and [n for n, _ in leds] == list(effects.LEDS)
    assert 'purple' in effects.led('Front-C', 'purple')[1]
    assert 'Back-C' in effects.led('Back-C', 'red')[1]     # robobopy's LED enum has no Back-C


def test_emotions_sounds_and_speech_are_checked():
    assert effects.one_of('setEmotion', 'happy', effects.EMOTIONS) is None
    assert "'bored'" in effects.one_of('setEmotion', 'bored', effects.EMOTIONS)
    assert effects.speech('hi') is None and effects.speech('  ')
